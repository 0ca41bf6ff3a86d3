import {
  AttemptResult,
  AttemptVerdict,
  classifyAttempt,
  nextDelay,
  parseRetryAfter,
  RetrySchedule,
} from './retry-policy';

describe('classifyAttempt', () => {
  const cases: Array<[string, AttemptResult, AttemptVerdict]> = [
    ['R01 200 delivered', { status: 200 }, 'delivered'],
    ['R02 204 delivered', { status: 204 }, 'delivered'],
    ['R03 500 retried', { status: 500 }, 'retry'],
    ['R04 503 retried', { status: 503 }, 'retry'],
    ['R05 429 retried', { status: 429 }, 'retry'],
    ['R06 408 retried', { status: 408 }, 'retry'],
    ['R07 network error retried', { networkError: new Error('ECONNREFUSED') }, 'retry'],
    ['R08 400 given up', { status: 400 }, 'give-up'],
    ['R09 401 given up', { status: 401 }, 'give-up'],
    ['R10 413 given up', { status: 413 }, 'give-up'],
    ['R11 404 given up', { status: 404 }, 'give-up'],
    ['R12 3xx given up', { status: 301 }, 'give-up'],
  ];
  it.each(cases)('%s', (_, result, verdict) => expect(classifyAttempt(result)).toBe(verdict));
});

describe('nextDelay', () => {
  const schedule: RetrySchedule = {
    maxAttempts: 10,
    initialDelayMs: 100,
    maxDelayMs: 1000,
    maxRetryAfterMs: 5000,
  };

  it('doubles per attempt, half of it jittered, up to maxDelayMs', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => nextDelay(attempt, schedule, 0))).toEqual([
      50, 100, 200, 400, 500,
    ]);
    expect([1, 2, 3, 4, 5].map((attempt) => nextDelay(attempt, schedule, 0.5))).toEqual([
      75, 150, 300, 600, 750,
    ]);
  });

  it('honours Retry-After up to maxRetryAfterMs', () => {
    expect(nextDelay(1, schedule, 0.5, 2000)).toBe(2000);
    expect(nextDelay(1, schedule, 0.5, 3_600_000)).toBe(5000);
    expect(nextDelay(1, schedule, 0.5, 0)).toBe(0);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    ['delta-seconds', '3', 3000],
    ['an HTTP date', 'Wed, 01 Jan 2025 00:00:10 GMT', 10_000],
    ['a past HTTP date', 'Tue, 31 Dec 2024 00:00:00 GMT', 0],
    ['garbage', 'soon', undefined],
    ['absent', null, undefined],
  ])('reads %s', (_, header, expected) => expect(parseRetryAfter(header, now)).toBe(expected));
});
