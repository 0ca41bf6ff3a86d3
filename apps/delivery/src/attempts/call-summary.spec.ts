import { webhookEnvelope } from '@switchyard/webhooks';
import { Call } from '@switchyard/contracts';
import { summariseEnvelope } from './call-summary';

const envelope = (call: Partial<Call>) =>
  Buffer.from(
    JSON.stringify(
      webhookEnvelope({ messageId: 'm1', timestamp: '2026-01-01T00:00:00.000Z', ...call } as Call),
    ),
  );

describe('summariseEnvelope', () => {
  it.each<[string, Partial<Call>, object]>([
    [
      'a track call',
      {
        type: 'track',
        userId: 'u1',
        anonymousId: 'a1',
        event: 'Order {"Completed"}, [1]',
        properties: { event: 'nested' },
      },
      { type: 'track', userId: 'u1', anonymousId: 'a1', event: 'Order {"Completed"}, [1]' },
    ],
    [
      'an identify call',
      { type: 'identify', anonymousId: 'a1', traits: { userId: 'nested' } },
      { type: 'identify', userId: undefined, anonymousId: 'a1', event: undefined },
    ],
    [
      'an alias (its user is "User ID")',
      { type: 'alias', userId: 'u2', previousId: 'u1' },
      { type: 'alias', userId: 'u2' },
    ],
  ])('reads %s from the head of the envelope the router writes', (_name, call, expected) => {
    expect(summariseEnvelope(envelope(call))).toMatchObject(expected);
  });

  it('finds fields that come after a nested value, and reads envelopes without nested values', () => {
    expect(
      summariseEnvelope(
        Buffer.from('{"type":"track","properties":{"event":"no"},"event":"yes","userId":"u"}'),
      ),
    ).toEqual({ type: 'track', event: 'yes', userId: 'u', anonymousId: undefined });
    expect(summariseEnvelope(Buffer.from('{"type":"delete","userId":"u9","messageId":"m"}'))).toMatchObject({
      type: 'delete',
      userId: 'u9',
    });
    expect(summariseEnvelope(Buffer.from('{"context":{},"type":"screen","anonymousId":"a"}'))).toEqual({
      userId: undefined,
      anonymousId: 'a',
      type: 'screen',
      event: undefined,
    });
  });

  it('reads whitespace, escaped and non-ASCII strings, and skips values that are not strings', () => {
    const body =
      ' {\n "userId" : 42 , "type":"track", "context":{"a":"}]"}, "event" : "Caf\u00e9 \\"Ordered\\" ✓", "anonymousId":"anon-é"}';
    expect(summariseEnvelope(Buffer.from(body))).toEqual({
      userId: undefined,
      anonymousId: 'anon-é',
      type: 'track',
      event: 'Café "Ordered" ✓',
    });
    expect(
      summariseEnvelope(Buffer.from(`{"type":"page","anonymousId":"${'a'.repeat(200)}","properties":{}}`)),
    ).toMatchObject({ anonymousId: 'a'.repeat(200) });
  });

  it('gives nothing for a body that is not a JSON object', () => {
    expect(summariseEnvelope(Buffer.from('{"type":"tr'))).toEqual({});
    expect(summariseEnvelope(Buffer.from('[1,2]'))).toEqual({});
    expect(summariseEnvelope(Buffer.from('{"type":"track","properties":{"a":[1,'))).toEqual({});
    expect(summariseEnvelope(Buffer.from('{"type" "track"}'))).toEqual({});
    expect(summariseEnvelope(Buffer.alloc(0))).toEqual({});
  });
});
