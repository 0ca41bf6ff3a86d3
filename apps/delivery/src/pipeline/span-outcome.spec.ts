import { spanOutcome } from './span-outcome';

const state = { attempt: 3, replays: 0, lastError: 'http://127.0.0.1/hook: HTTP 503' };

describe('spanOutcome', () => {
  it('says delivered, with no error', () => {
    expect(spanOutcome({ kind: 'delivered', state })).toEqual({
      attributes: { 'switchyard.outcome': 'delivered' },
    });
  });

  it('makes a failed attempt that will be retried an ERROR, naming the tier and the last error', () => {
    expect(spanOutcome({ kind: 'retry', tier: 2, state })).toEqual({
      attributes: { 'switchyard.outcome': 'retry', 'switchyard.retry_tier': 2 },
      error: { type: 'retry', message: 'attempt 3 failed, retry tier 2: http://127.0.0.1/hook: HTTP 503' },
    });
  });

  it.each([
    'permanent',
    'window-spent',
    'destination-deleted',
    'destination-disabled',
    'unreadable',
  ] as const)('makes a dead letter (%s) an ERROR whose type is the failure kind', (failure) => {
    expect(spanOutcome({ kind: 'dead', failure, state })).toEqual({
      attributes: { 'switchyard.outcome': 'dead-lettered', 'switchyard.failure': failure },
      error: { type: failure, message: `dead-lettered (${failure}): http://127.0.0.1/hook: HTTP 503` },
    });
  });
});
