import { Call } from '../calls/call';
import { decodeIngestedEvent, encodeIngestedEvent, eventKey } from './ingested-event';

const valid = {
  sourceId: 'web',
  call: {
    type: 'track',
    event: 'Signed Up',
    userId: 'u-1',
    messageId: 'm-1',
    timestamp: '2024-03-01T12:00:00.000Z',
    context: {},
    integrations: {},
    receivedAt: '2024-03-01T12:00:00.000Z',
  },
};
const bytes = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

describe('decodeIngestedEvent', () => {
  it('accepts a valid event', () => {
    expect(decodeIngestedEvent(bytes(valid))).toEqual({ ok: true, value: valid });
  });

  it.each([
    ['an empty record', null, 'record has no value'],
    ['text that is not JSON', bytes('{oops'), 'value is not JSON'],
    ['a JSON array', bytes([1]), 'must be a JSON object'],
    ['a missing sourceId', bytes({ call: valid.call }), 'sourceId must be a non-empty string'],
    ['a missing call', bytes({ sourceId: 'web' }), 'each message must be a JSON object'],
    [
      'an unknown call type',
      bytes({ ...valid, call: { ...valid.call, type: 'jump' } }),
      'type must be one of',
    ],
    [
      'a track without event',
      bytes({ ...valid, call: { ...valid.call, event: undefined } }),
      'call.event: event is required for track',
    ],
    [
      'a call without messageId',
      bytes({ ...valid, call: { ...valid.call, messageId: undefined } }),
      'call.messageId: required',
    ],
    [
      'a call without timestamp',
      bytes({ ...valid, call: { ...valid.call, timestamp: undefined } }),
      'call.timestamp: required',
    ],
  ])('refuses %s with a reason', (_what, value, reason) => {
    const result = decodeIngestedEvent(value);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain(reason);
  });
});

describe('eventKey', () => {
  it('keys a call by source and user', () => {
    expect(eventKey('web', { userId: 'u1', anonymousId: 'a1' })).toBe('web:u1');
  });
  it('keys an anonymous call by its anonymousId, also when userId is empty (analytics-kotlin sends "")', () => {
    expect(eventKey('app', { anonymousId: 'a1' })).toBe('app:a1');
    expect(eventKey('app', { userId: '', anonymousId: 'a1' })).toBe('app:a1');
  });
});

describe('encodeIngestedEvent', () => {
  it('writes what decodeIngestedEvent reads back, keyed by source and user', () => {
    const record = encodeIngestedEvent(valid.sourceId, valid.call as Call);
    expect(record.key).toBe('web:u-1');
    expect(decodeIngestedEvent(Buffer.from(record.value))).toEqual({ ok: true, value: valid });
  });
});
