import { nextDelay, RetrySchedule } from '../retry/retry-schedule';
import { RetryState } from '@switchyard/contracts';
import { AttemptedStep, AttemptResult } from '../delivery-vocabulary';

export interface RetryPolicy {
  schedule: RetrySchedule;
  windowMs: number;
}

/**
 * Stage 4: what happens to the job after an attempt. A retry that would start after the window
 * (measured from the first attempt) is not scheduled: the job is dead-lettered now, with the
 * error that made it fail last.
 */
export function decideNext(
  before: RetryState,
  result: AttemptResult,
  nowMs: number,
  policy: RetryPolicy,
  random: () => number,
): AttemptedStep {
  const firstAttemptAt = before.firstAttemptAt ?? nowMs;
  const attempt = before.attempt + 1;
  const base: RetryState = {
    ...before,
    attempt,
    firstAttemptAt,
    lastAttemptAt: nowMs,
    notBefore: undefined,
    throttledUntil: undefined,
  };
  if (result.verdict === 'delivered') return { kind: 'delivered', state: base };
  if (result.verdict === 'permanent')
    return { kind: 'dead', failure: 'permanent', state: { ...base, lastError: result.reason } };
  const { delayMs, tier } = nextDelay(attempt, policy.schedule, random, result.retryAfterMs);
  const notBefore = nowMs + delayMs;
  if (notBefore > firstAttemptAt + policy.windowMs) {
    const lastError = `retry window of ${policy.windowMs} ms spent after ${attempt} attempts; last error: ${result.reason}`;
    return { kind: 'dead', failure: 'window-spent', state: { ...base, lastError } };
  }
  return { kind: 'retry', tier, state: { ...base, notBefore, lastError: result.reason } };
}
