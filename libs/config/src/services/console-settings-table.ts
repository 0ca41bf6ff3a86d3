import { isURL } from '@switchyard/contracts/class-validator';
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
    ingestUrl: text({
      env: 'CONSOLE_INGEST_URL',
      default: 'http://127.0.0.1:8080',
      accepts: (value) =>
        isURL(value, { protocols: ['http', 'https'], require_protocol: true, require_tld: false }),
      rule: 'must be an http(s) URL',
      description:
        "Ingest's public base URL: the setup pages' SDK snippets point there, and a destination's test event is sent through it.",
    }),
    apiTokensFile: text({
      env: 'API_TOKENS_FILE',
      default: undefined,
      description:
        'A file of named tokens, one a line: `<name> <admin|viewer> sha256:<hex of the token>` (only hashes, so a Secret holding it holds no usable token). `ADMIN_TOKEN` is an admin named `admin` beside them.',
    }),
    auditRecords: integer({
      env: 'CONSOLE_AUDIT_RECORDS',
      default: 10_000,
      min: 1,
      max: 1_000_000,
      description:
        'Workspace changes the audit page and API hold in memory; the audit topic keeps them longer.',
    }),
    workspaceSeedFile: text({
      env: 'WORKSPACE_SEED_FILE',
      default: undefined,
      description:
        'A workspace file (YAML or JSON) the console applies when the workspace topic is empty at start-up, as `npm start` does with the example.',
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
