import { isURL } from 'class-validator';
import { flag, integer, port, text } from '../setting-kinds';
import { settingsTable } from '../settings-table';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

/** The console's own settings: how much it indexes in memory, where delivery is, how logins last. */
export const CONSOLE_SETTINGS = settingsTable({
  title: 'Console',
  summary: "The console's in-memory index, its link to delivery, and its logins.",
  rows: {
    port: port(8083),
    /* The default fits the console's old space (its heap flag in config/runtime-flags.env). */
    maxAttempts: integer({
      env: 'CONSOLE_MAX_ATTEMPTS',
      default: 100_000,
      min: 1,
      max: 5_000_000,
      description: 'Attempt records held in memory; past it the oldest are evicted (and counted).',
    }),
    maxDeadLetters: integer({
      env: 'CONSOLE_MAX_DEAD_LETTERS',
      default: 10_000,
      min: 1,
      max: 1_000_000,
      description: 'Dead-letter records held in memory; past it the oldest are evicted (and counted).',
    }),
    callsPerSource: integer({
      env: 'CONSOLE_CALLS_PER_SOURCE',
      default: 100,
      min: 1,
      max: 10_000,
      description:
        'Calls kept per source for the live debugger; past it the oldest are evicted (and counted).',
    }),
    deliveryUrl: text({
      env: 'CONSOLE_DELIVERY_URL',
      default: 'http://127.0.0.1:8082',
      accepts: (value) =>
        isURL(value, { protocols: ['http', 'https'], require_protocol: true, require_tld: false }),
      rule: 'must be an http(s) URL',
      description:
        "Delivery's base URL: replays go through its `/dead-letters/replay`, the one replay implementation.",
    }),
    sessionTtlMs: integer({
      env: 'CONSOLE_SESSION_TTL_MS',
      default: 12 * HOUR,
      min: MINUTE,
      max: 30 * 24 * HOUR,
      description: 'How long a console login lasts.',
    }),
    secureCookie: flag({
      env: 'CONSOLE_SECURE_COOKIE',
      default: false,
      description:
        'Mark the session cookie `Secure`: set it when the console is served over HTTPS (an ingress), as it should be beyond localhost.',
    }),
  },
});
