import { ConfigurationError } from './errors';
import type { RetrySchedule } from './retry-policy';

/** Segment's documented limits: 32 KB of JSON per call, 500 KB per batch request (ingest enforces the same). */
export const MAX_MESSAGE_BYTES = 32 * 1024;
export const MAX_BATCH_BYTES = 500 * 1024;

export interface AnalyticsOptions {
  /** Base URL of ingest; batches go to `<endpoint>/v1/batch`. Default http://localhost:8080. */
  endpoint?: string;
  /** Messages queued before a flush, and the most per batch. Default 20; 1 sends every call at once. */
  flushAt?: number;
  /** analytics-go v2's name for flushAt. */
  size?: number;
  /** Most milliseconds a queued message waits before its batch is sent. Default 5000. */
  flushAfter?: number;
  /** Another name for flushAfter (Segment's Node SDKs). */
  flushInterval?: number;
  /** Unsent messages (queued or in flight) beyond which calls are refused with QueueFullError. Default 10000. */
  maxQueueSize?: number;
  /** Batch requests in flight at once. Default 4. */
  maxInFlightRequests?: number;
  /** Per attempt. Default 10000 ms. */
  requestTimeoutMs?: number;
  retry?: Partial<RetrySchedule>;
  /** Runtime logging to stderr; defaults to on when DEBUG=analytics is in the environment. */
  debug?: boolean;
}

export interface AnalyticsSettings {
  writeKey: string;
  batchUrl: string;
  flushAt: number;
  flushAfterMs: number;
  maxQueueSize: number;
  maxInFlightRequests: number;
  requestTimeoutMs: number;
  retry: RetrySchedule;
}

const DEFAULT_RETRY: RetrySchedule = {
  maxAttempts: 5,
  initialDelayMs: 200,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

/** Each numeric option's inclusive bounds; flushAt stops at ingest's default batch limit. */
const BOUNDS = {
  flushAt: [1, 2500],
  flushAfter: [1, 600_000],
  maxQueueSize: [1, 1_000_000],
  maxInFlightRequests: [1, 64],
  requestTimeoutMs: [100, 120_000],
  'retry.maxAttempts': [1, 20],
  'retry.initialDelayMs': [0, 60_000],
  'retry.maxDelayMs': [0, 300_000],
  'retry.maxRetryAfterMs': [0, 600_000],
} as const;

function bounded(name: keyof typeof BOUNDS, value: number): number {
  const [min, max] = BOUNDS[name];
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigurationError(`${name} must be an integer from ${min} to ${max}; got ${String(value)}`);
  }
  return value;
}

/** One value from two names for the same option; giving both with different values is a mistake worth stopping on. */
function aliased(
  names: [string, string],
  first: number | undefined,
  second: number | undefined,
  fallback: number,
): number {
  if (first !== undefined && second !== undefined && first !== second) {
    throw new ConfigurationError(
      `${names[0]} and ${names[1]} name the same option; give one (got ${first} and ${second})`,
    );
  }
  return first ?? second ?? fallback;
}

function batchUrl(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ConfigurationError(`endpoint must be an absolute http(s) URL; got "${endpoint}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(`endpoint must use http or https; got "${endpoint}"`);
  }
  return `${url.href.replace(/\/+$/, '')}/v1/batch`;
}

/** Defaults, then the options, each checked against its bounds: a bad value stops the constructor with its name and rule. */
export function resolveSettings(writeKey: unknown, options: AnalyticsOptions = {}): AnalyticsSettings {
  if (typeof writeKey !== 'string' || writeKey === '')
    throw new ConfigurationError('writeKey must be a non-empty string');
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const settings: AnalyticsSettings = {
    writeKey,
    batchUrl: batchUrl(options.endpoint ?? 'http://localhost:8080'),
    flushAt: bounded('flushAt', aliased(['flushAt', 'size'], options.flushAt, options.size, 20)),
    flushAfterMs: bounded(
      'flushAfter',
      aliased(['flushAfter', 'flushInterval'], options.flushAfter, options.flushInterval, 5000),
    ),
    maxQueueSize: bounded('maxQueueSize', options.maxQueueSize ?? 10_000),
    maxInFlightRequests: bounded('maxInFlightRequests', options.maxInFlightRequests ?? 4),
    requestTimeoutMs: bounded('requestTimeoutMs', options.requestTimeoutMs ?? 10_000),
    retry: {
      maxAttempts: bounded('retry.maxAttempts', retry.maxAttempts),
      initialDelayMs: bounded('retry.initialDelayMs', retry.initialDelayMs),
      maxDelayMs: bounded('retry.maxDelayMs', retry.maxDelayMs),
      maxRetryAfterMs: bounded('retry.maxRetryAfterMs', retry.maxRetryAfterMs),
    },
  };
  if (settings.maxQueueSize < settings.flushAt) {
    throw new ConfigurationError(
      `maxQueueSize (${settings.maxQueueSize}) must be at least flushAt (${settings.flushAt})`,
    );
  }
  return settings;
}
