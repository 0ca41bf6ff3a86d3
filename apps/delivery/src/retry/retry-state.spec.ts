import { DELIVERY_HEADERS, readRetryState, writeRetryState } from './retry-state';

describe('retry state headers', () => {
  it('reads a record without headers as a job that has made no attempt', () => {
    expect(readRetryState(undefined)).toEqual({
      attempt: 0, firstAttemptAt: undefined, lastAttemptAt: undefined, notBefore: undefined, lastError: undefined, replays: 0,
    });
  });

  it('survives a round trip through Kafka headers (Buffers)', () => {
    const state = { attempt: 3, firstAttemptAt: 1_700_000_000_000, lastAttemptAt: 1_700_000_060_000, notBefore: 1_700_000_360_000, lastError: 'HTTP 503', replays: 1 };
    const asKafkaGivesThem = Object.fromEntries(Object.entries(writeRetryState(state)).map(([k, v]) => [k, Buffer.from(v)]));
    expect(readRetryState(asKafkaGivesThem)).toEqual(state);
  });

  it('keeps the trace context of the record it came from', () => {
    const headers = writeRetryState({ attempt: 1, replays: 0 }, { traceparent: Buffer.from('00-abc-def-01'), other: Buffer.from('x') });
    expect(headers.traceparent).toBe('00-abc-def-01');
    expect(headers.other).toBeUndefined();
  });

  it('reads a damaged count or time as absent', () => {
    const state = readRetryState({ [DELIVERY_HEADERS.attempt]: Buffer.from('x'), [DELIVERY_HEADERS.notBefore]: Buffer.from('never') });
    expect(state.attempt).toBe(0);
    expect(state.notBefore).toBeUndefined();
  });
});
