import {
  decodeDeliveryHeaders,
  decodeNotBefore,
  DELIVERY_RECORD_HEADERS,
  decodeReceivedAt,
  DeliveryRecordHeaders,
  deliveryKey,
  encodeDeliveryHeaders,
  newJobHeaders,
} from './delivery-record';
import { DEAD_FAILURES } from './dead-failure';

/** Headers as kafkajs hands them to a consumer: Buffers. */
const asRead = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Buffer.from(v)]));

describe('delivery record headers', () => {
  const ids = { destinationId: 'dest-1', sourceId: 'web', messageId: 'm-1' };

  it('survives a round trip through Kafka, for a retry and for a dead letter', () => {
    const retry: DeliveryRecordHeaders = {
      ids,
      trace: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
      state: {
        attempt: 3,
        firstAttemptAt: 1_700_000_000_000,
        lastAttemptAt: 1_700_000_060_000,
        notBefore: 1_700_000_360_000,
        lastError: 'HTTP 503',
        replays: 1,
      },
      dead: undefined,
    };
    expect(decodeDeliveryHeaders(asRead(encodeDeliveryHeaders(retry)))).toEqual(retry);
    const dead = { ...retry, dead: { failure: 'window-spent' as const, deadAt: 1_700_014_400_000 } };
    expect(decodeDeliveryHeaders(asRead(encodeDeliveryHeaders(dead)))).toEqual(dead);
  });

  it('reads a failure header no writer produces as unknown, and every known reason as itself', () => {
    const deadWith = (failure: string) =>
      decodeDeliveryHeaders(asRead({ [DELIVERY_RECORD_HEADERS.failure]: failure })).dead?.failure;
    expect(deadWith('exploded')).toBe('unknown');
    for (const failure of DEAD_FAILURES) expect(deadWith(failure)).toBe(failure);
  });

  it("writes a router's job with its ids and trace only, which reads as no attempt made", () => {
    const headers = newJobHeaders(ids, { traceparent: '00-aa-bb-01' });
    expect(headers).toEqual({
      traceparent: '00-aa-bb-01',
      'x-switchyard-destination-id': 'dest-1',
      'x-switchyard-source-id': 'web',
      'x-switchyard-message-id': 'm-1',
    });
    expect(decodeDeliveryHeaders(asRead(headers)).state).toEqual({
      attempt: 0,
      replays: 0,
      firstAttemptAt: undefined,
      lastAttemptAt: undefined,
      notBefore: undefined,
      lastError: undefined,
    });
  });

  it("carries the call's receipt time from the router's job through a retry, so the age at delivery counts from ingest", () => {
    const receivedAt = Date.parse('2026-11-23T07:00:00.250Z');
    const routed = newJobHeaders(ids, {}, receivedAt);
    expect(routed['x-switchyard-received-at']).toBe('2026-11-23T07:00:00.250Z');
    const { trace, receivedAt: carried } = decodeDeliveryHeaders(asRead(routed));
    const retried = encodeDeliveryHeaders({
      ids,
      trace,
      receivedAt: carried,
      state: { attempt: 1, replays: 0 },
    });
    expect(decodeReceivedAt(asRead(retried))).toBe(receivedAt);
    expect(decodeReceivedAt(asRead(newJobHeaders(ids)))).toBeUndefined();
    expect(decodeReceivedAt({ 'x-switchyard-received-at': Buffer.from('yesterday') })).toBeUndefined();
  });

  it('reads records written by the previous release (the format is pinned)', () => {
    // A dead letter exactly as delivery wrote it before the codec moved to libs/contracts.
    const written = {
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      'x-switchyard-destination-id': 'demo-webhooks',
      'x-switchyard-source-id': 'website',
      'x-switchyard-message-id': '941277b7-8194-4588-a51a-b421846626e4',
      'x-switchyard-attempt': '4',
      'x-switchyard-replays': '0',
      'x-switchyard-first-attempt-at': '2026-11-22T10:00:00.000Z',
      'x-switchyard-last-attempt-at': '2026-11-22T14:00:00.000Z',
      'x-switchyard-last-error': 'HTTP 503',
      'x-switchyard-failure': 'window-spent',
      'x-switchyard-dead-at': '2026-11-22T14:00:00.010Z',
    };
    expect(decodeDeliveryHeaders(asRead(written))).toEqual({
      ids: {
        destinationId: 'demo-webhooks',
        sourceId: 'website',
        messageId: '941277b7-8194-4588-a51a-b421846626e4',
      },
      trace: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
      state: {
        attempt: 4,
        replays: 0,
        firstAttemptAt: Date.parse('2026-11-22T10:00:00.000Z'),
        lastAttemptAt: Date.parse('2026-11-22T14:00:00.000Z'),
        notBefore: undefined,
        lastError: 'HTTP 503',
      },
      dead: { failure: 'window-spent', deadAt: Date.parse('2026-11-22T14:00:00.010Z') },
    });
  });

  it('carries only the trace context of the record it came from, and reads damaged counts and times as absent', () => {
    const decoded = decodeDeliveryHeaders({
      other: Buffer.from('x'),
      tracestate: Buffer.from('k=v'),
      'x-switchyard-attempt': Buffer.from('x'),
      'x-switchyard-not-before': Buffer.from('never'),
    });
    expect(decoded.trace).toEqual({ tracestate: 'k=v' });
    expect(decoded.state.attempt).toBe(0);
    expect(decoded.state.notBefore).toBeUndefined();
    expect(decodeNotBefore({ 'x-switchyard-not-before': Buffer.from('2026-01-01T00:00:00.000Z') })).toBe(
      Date.parse('2026-01-01T00:00:00.000Z'),
    );
  });

  it('reads an empty id header as missing', () => {
    expect(
      decodeDeliveryHeaders({ 'x-switchyard-destination-id': Buffer.from('') }).ids.destinationId,
    ).toBeUndefined();
  });
});

describe('deliveryKey', () => {
  it('keeps a user key with colons whole after the two ids', () => {
    expect(deliveryKey('dest-1', 'web', 'user:with:colons')).toBe('dest-1:web:user:with:colons');
  });

  it('refuses an id that would make the key ambiguous', () => {
    expect(() => deliveryKey('dest:1', 'web', 'u')).toThrow(/destinationId "dest:1" holds a colon/);
    expect(() => deliveryKey('dest-1', 'w:eb', 'u')).toThrow(/sourceId/);
  });
});
