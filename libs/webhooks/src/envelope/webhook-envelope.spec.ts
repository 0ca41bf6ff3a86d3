import { Call } from '@switchyard/contracts';
import { deleteEnvelope, webhookEnvelope } from './webhook-envelope';

const context = {
  ip: '203.0.113.7',
  device: { model: 'iPhone15,2', type: 'ios' },
  os: { name: 'iOS', version: '17.4' },
  app: { build: '412', name: 'Shop', version: '4.1.0' },
};

function call(fields: Partial<Call> & Pick<Call, 'type'>): Call {
  return {
    messageId: 'm-1',
    userId: 'u-1',
    context,
    integrations: {},
    timestamp: '2024-03-01T12:00:00.000Z',
    receivedAt: '2024-03-01T12:00:01.000Z',
    ...fields,
  };
}

const common = {
  version: 1,
  messageId: 'm-1',
  timestamp: '2024-03-01T12:00:00.000Z',
  context,
  receivedAt: '2024-03-01T12:00:01.000Z',
};

describe('webhookEnvelope', () => {
  it('identify: version, type, userId, timestamp, traits, context', () => {
    expect(webhookEnvelope(call({ type: 'identify', traits: { email: 'a@example.com' } }))).toEqual({
      ...common,
      type: 'identify',
      userId: 'u-1',
      traits: { email: 'a@example.com' },
    });
  });

  it('track: event and properties', () => {
    expect(
      webhookEnvelope(call({ type: 'track', event: 'Order Completed', properties: { total: 30 } })),
    ).toEqual({
      ...common,
      type: 'track',
      userId: 'u-1',
      event: 'Order Completed',
      properties: { total: 30 },
    });
  });

  it('page: name, category and the four recognised page properties, filled from context.page when missing', () => {
    const page = call({
      type: 'page',
      name: 'Pricing',
      category: 'Docs',
      properties: { title: 'Pricing | Shop', plan: 'pro' },
      context: {
        ...context,
        page: {
          path: '/pricing',
          referrer: 'https://example.com/',
          title: 'ignored',
          url: 'https://shop.example/pricing',
          search: '?a=1',
        },
      },
    });
    expect(webhookEnvelope(page)).toEqual({
      ...common,
      context: page.context,
      type: 'page',
      userId: 'u-1',
      name: 'Pricing',
      category: 'Docs',
      properties: {
        path: '/pricing',
        referrer: 'https://example.com/',
        title: 'Pricing | Shop',
        url: 'https://shop.example/pricing',
        plan: 'pro',
      },
    });
  });

  it('screen: name and the device/os/app context, no properties', () => {
    const body = webhookEnvelope(call({ type: 'screen', name: 'Home', properties: { tab: 1 } }));
    expect(body).toEqual({ ...common, type: 'screen', userId: 'u-1', name: 'Home' });
    expect(body.context).toEqual({ ...context });
  });

  it('group: groupId and traits', () => {
    expect(webhookEnvelope(call({ type: 'group', groupId: 'g-9', traits: { plan: 'team' } }))).toEqual({
      ...common,
      type: 'group',
      userId: 'u-1',
      groupId: 'g-9',
      traits: { plan: 'team' },
    });
  });

  it('alias: "Previous ID" and "User ID" written exactly so, and no userId key', () => {
    const body = webhookEnvelope(call({ type: 'alias', userId: 'u-new', previousId: 'anon-7' }));
    expect(body).toEqual({ ...common, type: 'alias', 'Previous ID': 'anon-7', 'User ID': 'u-new' });
    expect(Object.keys(body)).not.toContain('userId');
  });

  it('carries anonymousId and sentAt when present and normalises every time to UTC with milliseconds', () => {
    const body = webhookEnvelope(
      call({
        type: 'track',
        event: 'E',
        userId: undefined,
        anonymousId: 'a-1',
        timestamp: '2024-03-01T13:00:00+01:00',
        sentAt: '2024-03-01T12:00:00.5Z',
      }),
    );
    expect(body).toMatchObject({
      anonymousId: 'a-1',
      timestamp: '2024-03-01T12:00:00.000Z',
      sentAt: '2024-03-01T12:00:00.500Z',
    });
    expect(body).not.toHaveProperty('userId');
  });

  it('defaults missing traits, properties and context to empty objects', () => {
    const bare = { ...call({ type: 'identify' }), context: undefined as never };
    expect(webhookEnvelope(bare)).toMatchObject({ traits: {}, context: {} });
    expect(webhookEnvelope(call({ type: 'track', event: 'E' }))).toMatchObject({ properties: {} });
  });

  it('never carries the call integrations object to the receiver', () => {
    expect(
      webhookEnvelope(call({ type: 'track', event: 'E', integrations: { All: false, Webhooks: true } })),
    ).not.toHaveProperty('integrations');
  });
});

describe('deleteEnvelope', () => {
  it('has only type "delete", userId, timestamp and messageId: no version', () => {
    expect(deleteEnvelope({ userId: 'u-1', timestamp: '2024-03-01T12:00:00Z', messageId: 'd-1' })).toEqual({
      type: 'delete',
      userId: 'u-1',
      timestamp: '2024-03-01T12:00:00.000Z',
      messageId: 'd-1',
    });
  });
});
