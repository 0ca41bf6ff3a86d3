import { normaliseCall, RequestContext } from './call-normaliser';

const request = (over: Partial<RequestContext> = {}): RequestContext => ({
  receivedAt: new Date('2026-01-01T00:00:00.000Z'),
  newMessageId: () => 'generated-id',
  ...over,
});

describe('normaliseCall', () => {
  it('stamps receipt time when no timestamp is given, and assigns a messageId', () => {
    const call = normaliseCall({ type: 'track', userId: 'u1', event: 'E' }, request());
    expect(call).toEqual({
      type: 'track',
      userId: 'u1',
      event: 'E',
      messageId: 'generated-id',
      context: {},
      integrations: {},
      timestamp: '2026-01-01T00:00:00.000Z',
      receivedAt: '2026-01-01T00:00:00.000Z',
    });
  });

  it('keeps a caller timestamp (historical import) as UTC with milliseconds, and the caller messageId', () => {
    const call = normaliseCall(
      {
        type: 'identify',
        userId: 'u1',
        messageId: 'm-1',
        timestamp: '2006-01-02T15:04:05-0700',
        originalTimestamp: '2006-01-02T15:04:05Z',
      },
      request(),
    );
    expect(call.timestamp).toBe('2006-01-02T22:04:05.000Z');
    expect(call.originalTimestamp).toBe('2006-01-02T15:04:05.000Z');
    expect(call.messageId).toBe('m-1');
  });

  it('merges batch context and integrations under the message own keys', () => {
    const call = normaliseCall(
      {
        type: 'track',
        userId: 'u1',
        event: 'E',
        context: { ip: '1.2.3.4' },
        integrations: { Webhooks: true },
      },
      request({
        context: { ip: '9.9.9.9', library: { name: 'x' } },
        integrations: { All: false, Webhooks: false },
      }),
    );
    expect(call.context).toEqual({ ip: '1.2.3.4', library: { name: 'x' } });
    expect(call.integrations).toEqual({ All: false, Webhooks: true });
  });

  it('uses the batch sentAt when the message has none, and drops fields outside the API', () => {
    const call = normaliseCall(
      { type: 'page', userId: 'u1', writeKey: 'secret', name: 'Home', properties: { url: '/x' } },
      request({ sentAt: '2026-01-01T00:00:00Z' }),
    );
    expect(call.sentAt).toBe('2026-01-01T00:00:00.000Z');
    expect(call).not.toHaveProperty('writeKey');
    expect(call.name).toBe('Home');
    expect(call.properties).toEqual({ url: '/x' });
  });

  it('fills context.ip from the client address only when the call has none', () => {
    const anonymous = normaliseCall(
      { type: 'track', anonymousId: 'a1', event: 'E' },
      request({ clientIp: '203.0.113.7' }),
    );
    expect(anonymous.context).toEqual({ ip: '203.0.113.7' });
    const own = normaliseCall(
      { type: 'track', anonymousId: 'a1', event: 'E', context: { ip: '198.51.100.1' } },
      request({ clientIp: '203.0.113.7' }),
    );
    expect(own.context).toEqual({ ip: '198.51.100.1' });
    const batchContext = { library: { name: 'x' } };
    normaliseCall(
      { type: 'track', anonymousId: 'a1', event: 'E' },
      request({ clientIp: '203.0.113.7', context: batchContext }),
    );
    expect(batchContext).toEqual({ library: { name: 'x' } });
  });
});
