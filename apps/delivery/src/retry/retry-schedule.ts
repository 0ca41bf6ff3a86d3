/** The retry policy: delays per retry, their jitter, and how far a receiver's `Retry-After` is honoured. */
export interface RetrySchedule {
  /** Delay before retry 1, 2, …; non-decreasing; the last one repeats. */
  readonly delaysMs: readonly number[];
  /** The retry topics: tier n holds jobs waiting about `tiersMs[n - 1]` (the service's schedule, whatever a destination's own). */
  readonly tiersMs: readonly number[];
  /** Each delay is stretched by `random() * jitterRatio` of itself: never shorter than scheduled. */
  readonly jitterRatio: number;
  /** A longer `Retry-After` is cut to this. */
  readonly retryAfterMaxMs: number;
}

export interface RetryDelay {
  delayMs: number;
  /** 1-based retry topic to wait in. */
  tier: number;
}

/**
 * When to try again after `attempt` failed attempts (1 = the first attempt failed). `random`
 * returns [0, 1) and is passed in so tests are deterministic. A `Retry-After` can lengthen
 * the wait (up to `retryAfterMaxMs`) but never shorten it below the schedule. The job waits in
 * the tier whose delay fits (`tierFor`), so it does not hold up the shorter waits of its tier.
 */
export function nextDelay(
  attempt: number,
  schedule: RetrySchedule,
  random: () => number,
  retryAfterMs?: number,
): RetryDelay {
  const { delaysMs } = schedule;
  const base = delaysMs[Math.min(Math.max(attempt, 1), delaysMs.length) - 1];
  const jittered = Math.round(base * (1 + random() * schedule.jitterRatio));
  const asked = retryAfterMs === undefined ? 0 : Math.min(retryAfterMs, schedule.retryAfterMaxMs);
  const delayMs = Math.max(jittered, asked);
  return { delayMs, tier: tierFor(delayMs, schedule.tiersMs) };
}

/**
 * The retry topic for a wait of `delayMs`: the highest tier whose nominal delay is not longer.
 * A retry partition is held until its head is due, so a job never holds up a tier's jobs by more
 * than the difference between its wait and the tier's; a wait shorter than tier 1 may itself wait
 * up to tier 1's delay behind the jobs ahead of it.
 */
export function tierFor(delayMs: number, tiersMs: readonly number[]): number {
  let tier = 1;
  tiersMs.forEach((delay, i) => {
    if (delay <= delayMs) tier = i + 1;
  });
  return tier;
}

/** `Retry-After` as milliseconds from `nowMs`: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names its weekday and month; Date.parse alone would read '-5' as a year.
  const date = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
