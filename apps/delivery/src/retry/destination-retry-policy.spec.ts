import { decideNext, RetryPolicy } from '../pipeline/decide-next';
import { destinationRetryPolicy } from './destination-retry-policy';

const defaults: RetryPolicy = {
  schedule: { delaysMs: [50, 100], tiersMs: [50, 100], jitterRatio: 0, retryAfterMaxMs: 1000 },
  windowMs: 4 * 3_600_000,
};
const failed = { verdict: 'retry' as const, reason: 'HTTP 503', failures: [] };
const noJitter = () => 0;

describe('destinationRetryPolicy', () => {
  it('keeps the service defaults for a destination without its own', () => {
    expect(destinationRetryPolicy(defaults, undefined)).toBe(defaults);
    expect(destinationRetryPolicy(defaults, {})).toEqual(defaults);
  });

  it("overrides the window and the delays independently, keeping the service's tiers", () => {
    expect(destinationRetryPolicy(defaults, { windowMs: 10_000 })).toEqual({ ...defaults, windowMs: 10_000 });
    expect(destinationRetryPolicy(defaults, { scheduleMs: [20, 5_000] }).schedule).toEqual({
      ...defaults.schedule,
      delaysMs: [20, 5_000],
    });
  });

  it('dead-letters at the destination window while the default keeps retrying', () => {
    const state = { attempt: 3, firstAttemptAt: 0, replays: 0 };
    const own = destinationRetryPolicy(defaults, { windowMs: 10_000, scheduleMs: [1_000] });
    expect(decideNext(state, failed, 9_500, own, noJitter)).toMatchObject({
      kind: 'dead',
      failure: 'window-spent',
      state: { lastError: expect.stringContaining('retry window of 10000 ms') },
    });
    expect(decideNext(state, failed, 9_500, defaults, noJitter)).toMatchObject({ kind: 'retry', tier: 2 });
  });
});
