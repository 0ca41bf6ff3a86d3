import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
} from 'class-validator';
import {
  assertKafkaSettings,
  CommonSettings,
  commonSettingsFromEnv,
  ConfigError,
  envBoolean,
  envNumber,
  envString,
  validateSettings,
} from '@switchyard/config';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delivery's settings: defaults, then the environment; validated at start-up. */
export class DeliverySettings extends CommonSettings {
  /** Product token of the User-Agent header, sent as `<token>/1.0`. */
  @IsString()
  @Matches(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/, {
    message: 'userAgentToken (DELIVERY_USER_AGENT) must be an HTTP token of 1-64 characters',
  })
  userAgentToken!: string;

  /** Time for one webhook request, connect to last byte of the response (Segment documents 5 s). */
  @Type(() => Number)
  @IsInt()
  @Min(50)
  @Max(60 * SECOND)
  requestTimeoutMs!: number;

  /** Delay before retry 1, 2, …; the last repeats. One retry topic per entry. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @Type(() => Number)
  @IsInt({ each: true })
  @Min(10, { each: true })
  @Max(24 * HOUR, { each: true })
  retryScheduleMs!: number[];

  /** Each delay is stretched by up to this fraction at random, so a burst of failures does not retry in lockstep. */
  @Type(() => Number)
  @IsNumber()
  @Min(0)
  @Max(1)
  retryJitterRatio!: number;

  /** Time from the first attempt after which a failing job is dead-lettered (Segment documents 4 hours). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(7 * 24 * HOUR)
  retryWindowMs!: number;

  /** Longest `Retry-After` a receiver may ask for; longer requests are cut to this. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(24 * HOUR)
  retryAfterMaxMs!: number;

  /** Jobs taken from one partition and not finished yet; the partition pauses at this bound. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  maxInFlightPerPartition!: number;

  /** Record bytes of those jobs; the partition also pauses at this bound, so memory stays flat however large events are. */
  @Type(() => Number)
  @IsInt()
  @Min(64 * 1024)
  @Max(1024 * 1024 * 1024)
  maxInFlightBytesPerPartition!: number;

  /** Concurrent requests to one destination; its further jobs wait in memory. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10_000)
  maxInFlightPerDestination!: number;

  /** Consecutive retryable failures of one URL that open its circuit. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  breakerFailureThreshold!: number;

  /** How long an open circuit fails fast before one probe request is let through. */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(HOUR)
  breakerOpenMs!: number;

  /** SSRF guard: refuse to connect to private, loopback and link-local addresses. */
  @IsBoolean({ message: 'blockPrivateAddresses (DELIVERY_BLOCK_PRIVATE_ADDRESSES) must be true or false' })
  blockPrivateAddresses!: boolean;

  /** On SIGTERM, how long in-flight jobs may take to finish before the service exits anyway (they are then re-delivered). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10 * MINUTE)
  shutdownGraceMs!: number;

  /** How often finished offsets are committed. */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(MINUTE)
  commitIntervalMs!: number;

  /** Write one record per webhook request to the attempts topic (the console reads it). */
  @IsBoolean({ message: 'attemptsTopic (DELIVERY_ATTEMPTS_TOPIC) must be true or false' })
  attemptsTopic!: boolean;

  /** Bearer token for the dead-letter endpoints. Unset: those endpoints answer 503. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'adminToken (ADMIN_TOKEN) must be at least 16 characters' })
  adminToken?: string;
}

export const DELIVERY_DEFAULTS = {
  userAgentToken: 'Switchyard',
  requestTimeoutMs: 5 * SECOND,
  retryScheduleMs: [10 * SECOND, MINUTE, 5 * MINUTE, 30 * MINUTE, HOUR],
  retryJitterRatio: 0.2,
  retryWindowMs: 4 * HOUR,
  retryAfterMaxMs: HOUR,
  // Room for jobs of healthy destinations to pass those waiting on a dead one: a lower bound lets
  // a dead endpoint take the healthy ones' throughput (isolation row, bench/README.md).
  maxInFlightPerPartition: 1000,
  // 1,000 jobs of ~500-byte events fit (their records are ~1 KB); larger events pause sooner.
  maxInFlightBytesPerPartition: 1024 * 1024,
  maxInFlightPerDestination: 64,
  breakerFailureThreshold: 5,
  breakerOpenMs: 30 * SECOND,
  blockPrivateAddresses: false,
  shutdownGraceMs: 10 * SECOND,
  commitIntervalMs: 200,
  attemptsTopic: true,
} as const;

/** Reads `10000,60000` as numbers, leaving a bad entry as its raw string so validation names it. */
function envNumberList(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: readonly number[],
): Array<number | string> {
  const raw = env[name];
  if (raw === undefined || raw === '') return [...fallback];
  return raw
    .split(',')
    .map((part) => (part.trim() !== '' && Number.isFinite(Number(part)) ? Number(part) : part));
}

export function deliverySettingsFromEnv(env: NodeJS.ProcessEnv = process.env): DeliverySettings {
  const d = DELIVERY_DEFAULTS;
  const settings = validateSettings(
    DeliverySettings,
    {
      ...commonSettingsFromEnv(env, 8082),
      userAgentToken: envString(env, 'DELIVERY_USER_AGENT', d.userAgentToken),
      requestTimeoutMs: envNumber(env, 'DELIVERY_REQUEST_TIMEOUT_MS', d.requestTimeoutMs),
      retryScheduleMs: envNumberList(env, 'DELIVERY_RETRY_SCHEDULE_MS', d.retryScheduleMs),
      retryJitterRatio: envNumber(env, 'DELIVERY_RETRY_JITTER', d.retryJitterRatio),
      retryWindowMs: envNumber(env, 'DELIVERY_RETRY_WINDOW_MS', d.retryWindowMs),
      retryAfterMaxMs: envNumber(env, 'DELIVERY_RETRY_AFTER_MAX_MS', d.retryAfterMaxMs),
      maxInFlightPerPartition: envNumber(
        env,
        'DELIVERY_MAX_IN_FLIGHT_PER_PARTITION',
        d.maxInFlightPerPartition,
      ),
      maxInFlightBytesPerPartition: envNumber(
        env,
        'DELIVERY_MAX_IN_FLIGHT_BYTES_PER_PARTITION',
        d.maxInFlightBytesPerPartition,
      ),
      maxInFlightPerDestination: envNumber(
        env,
        'DELIVERY_MAX_IN_FLIGHT_PER_DESTINATION',
        d.maxInFlightPerDestination,
      ),
      breakerFailureThreshold: envNumber(
        env,
        'DELIVERY_BREAKER_FAILURE_THRESHOLD',
        d.breakerFailureThreshold,
      ),
      breakerOpenMs: envNumber(env, 'DELIVERY_BREAKER_OPEN_MS', d.breakerOpenMs),
      blockPrivateAddresses: envBoolean(env, 'DELIVERY_BLOCK_PRIVATE_ADDRESSES', d.blockPrivateAddresses),
      shutdownGraceMs: envNumber(env, 'DELIVERY_SHUTDOWN_GRACE_MS', d.shutdownGraceMs),
      commitIntervalMs: envNumber(env, 'DELIVERY_COMMIT_INTERVAL_MS', d.commitIntervalMs),
      attemptsTopic: envBoolean(env, 'DELIVERY_ATTEMPTS_TOPIC', d.attemptsTopic),
      adminToken: env.ADMIN_TOKEN || undefined,
    },
    'delivery settings',
  );
  assertKafkaSettings(settings, 'delivery settings');
  assertConsistent(settings);
  return settings;
}

/** Rules that span fields. */
function assertConsistent(settings: DeliverySettings): void {
  const problems: string[] = [];
  const schedule = settings.retryScheduleMs;
  if (schedule.some((delay, i) => i > 0 && delay < schedule[i - 1])) {
    problems.push('retryScheduleMs (DELIVERY_RETRY_SCHEDULE_MS): delays must not decrease');
  }
  if (schedule[0] >= settings.retryWindowMs) {
    problems.push(
      'retryWindowMs (DELIVERY_RETRY_WINDOW_MS): must be longer than the first retry delay, or nothing is ever retried',
    );
  }
  if (problems.length > 0)
    throw new ConfigError(`invalid delivery settings:\n  - ${problems.join('\n  - ')}`);
}

/** Delivery's consumer group; namespaced like the topics it reads. */
export function deliveryGroupId(settings: Pick<DeliverySettings, 'topicNamespace'>): string {
  return `${settings.topicNamespace}.delivery`;
}
