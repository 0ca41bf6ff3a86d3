import { nextDelay, parseRetryAfter, RetrySchedule } from './retry-schedule';

const TIERS_MS = [10_000, 60_000, 300_000, 1_800_000, 3_600_000];
const schedule: RetrySchedule = {
  delaysMs: TIERS_MS,
  tiersMs: TIERS_MS,
  jitterRatio: 0.2,
  retryAfterMaxMs: 3_600_000,
};
const noJitter = () => 0;
const maxJitter = () => 0.999999;

describe('nextDelay', () => {
  it('follows the schedule, one tier per attempt', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => nextDelay(attempt, schedule, noJitter))).toEqual([
      { delayMs: 10_000, tier: 1 },
      { delayMs: 60_000, tier: 2 },
      { delayMs: 300_000, tier: 3 },
      { delayMs: 1_800_000, tier: 4 },
      { delayMs: 3_600_000, tier: 5 },
    ]);
  });

  it('repeats the last delay once the schedule is used up', () => {
    expect(nextDelay(6, schedule, noJitter)).toEqual({ delayMs: 3_600_000, tier: 5 });
    expect(nextDelay(40, schedule, noJitter)).toEqual({ delayMs: 3_600_000, tier: 5 });
  });

  it('stretches a delay by at most the jitter ratio, never shortens it', () => {
    expect(nextDelay(1, schedule, () => 0.5).delayMs).toBe(11_000);
    expect(nextDelay(1, schedule, maxJitter).delayMs).toBe(12_000);
    expect(nextDelay(1, schedule, maxJitter).tier).toBe(1);
  });

  it('honours a longer Retry-After and moves the job to the tier that fits it', () => {
    expect(nextDelay(1, schedule, noJitter, 120_000)).toEqual({ delayMs: 120_000, tier: 2 });
  });

  it('ignores a Retry-After shorter than the schedule', () => {
    expect(nextDelay(2, schedule, noJitter, 1_000)).toEqual({ delayMs: 60_000, tier: 2 });
  });

  it('cuts a Retry-After to the configured maximum', () => {
    expect(nextDelay(1, schedule, noJitter, 86_400_000)).toEqual({ delayMs: 3_600_000, tier: 5 });
  });

  it("follows a destination's own delays, each waiting in the service tier that fits it", () => {
    const own = { ...schedule, delaysMs: [1_000, 90_000, 7_200_000] };
    expect([1, 2, 3].map((attempt) => nextDelay(attempt, own, noJitter))).toEqual([
      { delayMs: 1_000, tier: 1 },
      { delayMs: 90_000, tier: 2 },
      { delayMs: 7_200_000, tier: 5 },
    ]);
  });

  it('treats attempt 0 like attempt 1', () => {
    expect(nextDelay(0, schedule, noJitter)).toEqual({ delayMs: 10_000, tier: 1 });
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads delay-seconds', () => expect(parseRetryAfter('120', now)).toBe(120_000));
  it('reads an HTTP date', () => expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000));
  it('gives 0 for a date in the past', () =>
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0));
  it('ignores absent and unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});
