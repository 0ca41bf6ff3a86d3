import {
  DELIVERY_RECORD_HEADERS as DELIVERY_HEADERS,
  describeDeadRecord,
  newJobHeaders,
} from '@switchyard/contracts';
import { matchesFilter, replayHeaders } from './dead-letter';

const ids = newJobHeaders({ destinationId: 'd1', sourceId: 's1', messageId: 'm1' });
const headers = {
  ...Object.fromEntries(Object.entries(ids).map(([name, value]) => [name, Buffer.from(value)])),
  [DELIVERY_HEADERS.attempt]: Buffer.from('4'),
  [DELIVERY_HEADERS.replays]: Buffer.from('1'),
  [DELIVERY_HEADERS.firstAttemptAt]: Buffer.from('2025-01-01T00:00:00.000Z'),
  [DELIVERY_HEADERS.lastAttemptAt]: Buffer.from('2025-01-01T04:00:00.000Z'),
  [DELIVERY_HEADERS.lastError]: Buffer.from('HTTP 503'),
  [DELIVERY_HEADERS.failure]: Buffer.from('window-spent'),
  [DELIVERY_HEADERS.deadAt]: Buffer.from('2025-01-01T04:00:00.000Z'),
  traceparent: Buffer.from('00-aa-bb-01'),
};

describe('dead letters', () => {
  const letter = describeDeadRecord(2, '17', headers);

  it('shows the job, the reason, the attempts and the times', () => {
    expect(letter).toEqual({
      id: '2:17',
      jobId: 'm1:d1',
      destinationId: 'd1',
      sourceId: 's1',
      messageId: 'm1',
      failure: 'window-spent',
      reason: 'HTTP 503',
      attempts: 4,
      replays: 1,
      firstAttemptAt: '2025-01-01T00:00:00.000Z',
      lastAttemptAt: '2025-01-01T04:00:00.000Z',
      deadAt: '2025-01-01T04:00:00.000Z',
    });
  });

  it('describes a record without ids or history without failing', () => {
    expect(describeDeadRecord(0, '1', undefined)).toMatchObject({
      id: '0:1',
      destinationId: undefined,
      failure: 'unknown',
    });
  });

  it('filters by id, destination, message and a half-open time range', () => {
    const at = Date.parse('2025-01-01T04:00:00.000Z');
    expect(matchesFilter(letter, {})).toBe(true);
    expect(matchesFilter(letter, { id: '2:17' })).toBe(true);
    expect(matchesFilter(letter, { id: '2:18' })).toBe(false);
    expect(matchesFilter(letter, { destinationId: 'd2' })).toBe(false);
    expect(matchesFilter(letter, { destinationId: 'd1', messageId: 'm1' })).toBe(true);
    expect(matchesFilter(letter, { messageId: 'm2' })).toBe(false);
    expect(matchesFilter(letter, { from: at, to: at + 1 })).toBe(true);
    expect(matchesFilter(letter, { to: at })).toBe(false);
    expect(matchesFilter(letter, { from: at + 1 })).toBe(false);
  });

  it('replays as a fresh job that keeps its ids and trace and counts the replay', () => {
    const replayed = replayHeaders({ letter, key: null, value: null, headers });
    // No attempt header: absent reads as no attempt made, as on a job fresh from the router.
    expect(replayed).toEqual({ traceparent: '00-aa-bb-01', ...ids, [DELIVERY_HEADERS.replays]: '2' });
  });
});
