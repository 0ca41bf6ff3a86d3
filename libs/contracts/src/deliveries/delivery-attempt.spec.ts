import {
  decodeDeliveryAttempts,
  DeliveryAttempt,
  DeliveryAttemptsWriter,
  encodeDeliveryAttempts,
} from './delivery-attempt';

const attempt: DeliveryAttempt = {
  destinationId: 'd1',
  messageId: 'm1',
  sourceId: 's1',
  userId: 'u1',
  type: 'track',
  event: 'Zoë Paid',
  urlIndex: 0,
  urlHost: 'a.example:8443',
  status: 500,
  errorKind: 'status',
  error: 'HTTP 500',
  durationMs: 12.5,
  attempt: 1,
  at: Date.UTC(2026, 0, 1),
  outcome: 'next-url',
  responseBody: '{"error":"boom"}',
};

describe('delivery attempts codec', () => {
  it('round-trips several attempts in one record, every field kept', () => {
    const second: DeliveryAttempt = {
      destinationId: 'd1',
      messageId: 'm1',
      sourceId: 's1',
      urlIndex: 1,
      status: 200,
      durationMs: 3,
      attempt: 1,
      at: Date.UTC(2026, 0, 1, 0, 0, 1),
      outcome: 'delivered',
    };
    expect(decodeDeliveryAttempts(Buffer.from(encodeDeliveryAttempts([attempt, second])))).toEqual({
      attempts: [attempt, second],
      refused: [],
    });
  });

  it('builds the same value attempt by attempt, starting a new one when the next attempt would not fit', () => {
    const second: DeliveryAttempt = { ...attempt, responseBody: 'ü'.repeat(100), urlIndex: 1 };
    const size = Buffer.byteLength(encodeDeliveryAttempts([attempt, second]));
    const writer = new DeliveryAttemptsWriter(size);
    expect(writer.add(attempt)).toBeUndefined();
    expect(writer.add(second)).toBeUndefined();
    const full = writer.add(attempt);
    expect(full).toEqual({ value: Buffer.from(encodeDeliveryAttempts([attempt, second])), attempts: 2 });
    expect(writer.take()).toEqual({ value: Buffer.from(encodeDeliveryAttempts([attempt])), attempts: 1 });
    expect(writer.take()).toBeUndefined();
  });

  it('gives an attempt larger than the capacity a value of its own', () => {
    const writer = new DeliveryAttemptsWriter(64);
    const large: DeliveryAttempt = { ...attempt, responseBody: '\u0000'.repeat(1024) };
    expect(writer.add(attempt)).toBeUndefined();
    expect(writer.add(large)).toEqual({ value: Buffer.from(encodeDeliveryAttempts([attempt])), attempts: 1 });
    expect(writer.add(attempt)).toEqual({ value: Buffer.from(encodeDeliveryAttempts([large])), attempts: 1 });
    expect(decodeDeliveryAttempts(writer.take()?.value ?? null).attempts).toEqual([attempt]);
  });

  it.each([
    [null, 'not JSON'],
    ['{"a":1}', 'JSON array'],
  ])('refuses the value %p, saying %s', (value, reason) => {
    expect(decodeDeliveryAttempts(value)).toEqual({
      attempts: [],
      refused: [expect.stringContaining(reason)],
    });
  });

  it('keeps the attempts of a record and refuses its other items, naming each problem', () => {
    const bad = [
      { ...attempt, messageId: '' },
      { ...attempt, attempt: '1' },
      { ...attempt, outcome: 'lost' },
      'text',
    ];
    const decoded = decodeDeliveryAttempts(JSON.stringify([attempt, ...bad]));
    expect(decoded.attempts).toEqual([attempt]);
    expect(decoded.refused).toEqual([
      expect.stringContaining('item 1: messageId must be a non-empty string'),
      expect.stringContaining('item 2: attempt must be a number'),
      expect.stringContaining('item 3: outcome must be one of'),
      expect.stringContaining('item 4: must be a JSON object'),
    ]);
  });
});
