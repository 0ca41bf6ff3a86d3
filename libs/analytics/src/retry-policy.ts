/** What to do after one attempt to send a batch. */
export type AttemptVerdict = 'delivered' | 'retry' | 'give-up';

/** The outcome of one attempt: an HTTP status, or a network failure (no response at all). */
export type AttemptResult = { status: number } | { networkError: unknown };

/**
 * One table for the whole library: 2xx delivered; 5xx, 429, 408 and network errors (refused
 * connection, reset, timeout) are worth another try; any other status is the caller's problem
 * (bad key, invalid batch) and a retry would only be refused again.
 */
export function classifyAttempt(result: AttemptResult): AttemptVerdict {
  if (!('status' in result)) return 'retry';
  const { status } = result;
  if (status >= 200 && status < 300) return 'delivered';
  if (status >= 500 || status === 429 || status === 408) return 'retry';
  return 'give-up';
}

export interface RetrySchedule {
  /** Attempts per batch, the first included. */
  maxAttempts: number;
  /** Backoff before the second attempt; doubles after each failure. */
  initialDelayMs: number;
  /** Ceiling of the doubling backoff. */
  maxDelayMs: number;
  /** Ceiling of a server's Retry-After, so a bad header cannot park the queue for hours. */
  maxRetryAfterMs: number;
}

/**
 * Delay before attempt `attempt + 1` after attempt `attempt` (1-based) failed. Without a
 * Retry-After: exponential backoff with "equal jitter" (half fixed, half random) so many clients
 * failing together spread out without any retrying at once. A Retry-After is honoured as given,
 * up to `maxRetryAfterMs`. `random` is in [0, 1), passed in so tests are deterministic.
 */
export function nextDelay(
  attempt: number,
  schedule: RetrySchedule,
  random: number,
  retryAfterMs?: number,
): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), schedule.maxRetryAfterMs);
  const backoff = Math.min(schedule.maxDelayMs, schedule.initialDelayMs * 2 ** (attempt - 1));
  return Math.round(backoff / 2 + (backoff / 2) * random);
}

/** Retry-After in milliseconds, from delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, now: number): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
