import { decodeEventDeadLetter, encodeEventDeadLetter, EventDeadLetter } from './event-dead-letter';

describe('events dead letters', () => {
  const letter: EventDeadLetter = {
    reason: 'value is not JSON',
    topic: 'switchyard.events.ingested.v1',
    partition: 3,
    offset: '42',
    key: 'web:u1',
    value: '{"broken',
  };

  it('survives a round trip, keeping the original key as the record key and the reason in a header', () => {
    const record = encodeEventDeadLetter(letter);
    expect(record.key).toBe('web:u1');
    expect(record.headers).toEqual({ 'x-switchyard-dead-reason': 'value is not JSON' });
    expect(decodeEventDeadLetter(record.value, record.headers)).toEqual(letter);
  });

  it('reads a record written by the previous release (the format is pinned)', () => {
    const written = Buffer.from(
      '{"reason":"invalid event: call.event: event is required for track","topic":"ns.events.ingested.v1","partition":2,"offset":"1","key":"web:u","value":"{\\"sourceId\\":\\"web\\"}"}',
    );
    expect(decodeEventDeadLetter(written)).toEqual({
      reason: 'invalid event: call.event: event is required for track',
      topic: 'ns.events.ingested.v1',
      partition: 2,
      offset: '1',
      key: 'web:u',
      value: '{"sourceId":"web"}',
    });
  });

  it('answers undefined for a record that is not a dead letter', () => {
    expect(decodeEventDeadLetter(Buffer.from('{"sourceId":"web"}'))).toBeUndefined();
    expect(decodeEventDeadLetter(Buffer.from('not json'))).toBeUndefined();
    expect(decodeEventDeadLetter(null)).toBeUndefined();
  });
});
