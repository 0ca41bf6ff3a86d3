import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength } from 'class-validator';
import {
  assertKafkaSettings,
  CommonSettings,
  commonSettingsFromEnv,
  envBoolean,
  envNumber,
  envString,
  validateSettings,
} from '@switchyard/config';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

/** The console's settings: defaults, then the environment; validated at start-up. */
export class ConsoleSettings extends CommonSettings {
  /** Attempt records held in memory; past it the oldest are evicted (and counted). ~1 KB each with a response body, less without. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(5_000_000)
  maxAttempts!: number;

  /** Dead-letter records held in memory; past it the oldest are evicted (and counted). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  maxDeadLetters!: number;

  /** Calls kept per source for the live debugger; past it the oldest are evicted (and counted). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10_000)
  callsPerSource!: number;

  /** Delivery's base URL: replays go through its `/dead-letters/replay`, the one replay implementation. */
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'deliveryUrl (CONSOLE_DELIVERY_URL) must be an http(s) URL' },
  )
  deliveryUrl!: string;

  /** How long a login lasts. */
  @Type(() => Number)
  @IsInt()
  @Min(MINUTE)
  @Max(30 * 24 * HOUR)
  sessionTtlMs!: number;

  /** Mark the session cookie `Secure`: set it when the console is served over HTTPS (an ingress), as it should be beyond localhost. */
  @IsBoolean({ message: 'secureCookie (CONSOLE_SECURE_COOKIE) must be true or false' })
  secureCookie!: boolean;

  /** The admin token: the API's bearer token and the login form's password. Unset: the console answers 503. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'adminToken (ADMIN_TOKEN) must be at least 16 characters' })
  adminToken?: string;
}

export const CONSOLE_DEFAULTS = {
  // Each attempt held costs heap (more with an error body): the default fits inside the console's 256 MB old space.
  maxAttempts: 100_000,
  maxDeadLetters: 10_000,
  callsPerSource: 100,
  deliveryUrl: 'http://127.0.0.1:8082',
  sessionTtlMs: 12 * HOUR,
  secureCookie: false,
} as const;

export function consoleSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): ConsoleSettings {
  const d = CONSOLE_DEFAULTS;
  const settings = validateSettings(
    ConsoleSettings,
    {
      ...commonSettingsFromEnv(env, 8083),
      maxAttempts: envNumber(env, 'CONSOLE_MAX_ATTEMPTS', d.maxAttempts),
      maxDeadLetters: envNumber(env, 'CONSOLE_MAX_DEAD_LETTERS', d.maxDeadLetters),
      callsPerSource: envNumber(env, 'CONSOLE_CALLS_PER_SOURCE', d.callsPerSource),
      deliveryUrl: envString(env, 'CONSOLE_DELIVERY_URL', d.deliveryUrl),
      sessionTtlMs: envNumber(env, 'CONSOLE_SESSION_TTL_MS', d.sessionTtlMs),
      secureCookie: envBoolean(env, 'CONSOLE_SECURE_COOKIE', d.secureCookie),
      adminToken: env.ADMIN_TOKEN || undefined,
    },
    'console settings',
  );
  assertKafkaSettings(settings, 'console settings');
  return settings;
}
