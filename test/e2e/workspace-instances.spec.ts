import { createHmac, randomUUID } from 'node:crypto';
import { ManagementApi, topicModeEnv } from '../support/management-api';
import { sampleValue, scrape } from '../support/prometheus-text';
import { ServiceProcess } from '../support/service-process';
import { TopicModeStack } from '../support/topic-mode-stack';
import { trackCall } from '../support/track-load';
import { ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver';

const FIRST_KEY = 'instances-write-key-first';
const SECOND_KEY = 'instances-write-key-second';
const SHARED_SECRET = 'instances-shared-secret-4e7b';
const TEAM_HEADER = 'growth-team-81f3';

/** Calls the destination `hooks` delivered on one delivery process, from its /metrics. */
async function deliveredBy(delivery: ServiceProcess): Promise<number> {
  const samples = await scrape(delivery.url);
  return (
    sampleValue(samples, 'switchyard_delivery_jobs_total', { destination: 'hooks', outcome: 'delivered' }) ??
    0
  );
}

const signedWithSharedSecret = (hook: ReceivedWebhook) =>
  hook.headers['x-signature'] === createHmac('sha1', SHARED_SECRET).update(hook.raw).digest('hex');

/**
 * Two ingest and two delivery processes (and a router and a console) follow the workspace topic.
 * A change made through the management API is awaited on every instance (each reports the
 * workspace offset it applied), then what each instance does is checked; never how long it took.
 */
describe('two ingest and two delivery instances set up through the management API', () => {
  jest.setTimeout(180_000);
  let stack: TopicModeStack;
  let api: ManagementApi;
  let first: WebhookReceiver;
  let second: WebhookReceiver;
  let canary: WebhookReceiver;

  beforeAll(async () => {
    [first, second, canary] = await Promise.all([
      WebhookReceiver.start(),
      WebhookReceiver.start(),
      WebhookReceiver.start(),
    ]);
    stack = await TopicModeStack.start(topicModeEnv('instances'));
    api = stack.api();
    const created = [
      await api.request('POST', '/sources', { body: { id: 'web', name: 'Web', writeKey: FIRST_KEY } }),
      await api.request('POST', '/destinations', {
        body: {
          id: 'hooks',
          name: 'Hooks',
          type: 'Webhooks',
          enabled: true,
          sources: ['web'],
          settings: {
            sharedSecret: SHARED_SECRET,
            webhooks: [{ url: first.url('/first'), headers: { 'X-Team': TEAM_HEADER } }],
          },
        },
      }),
      // Receives every call: once it has a call, the pipeline has routed it to every destination.
      await api.request('POST', '/destinations', {
        body: {
          id: 'canary',
          name: 'Canary',
          type: 'Webhooks',
          enabled: true,
          sources: ['web'],
          settings: { webhooks: [{ url: canary.url('/canary') }] },
        },
      }),
    ];
    expect(created.map((c) => c.status)).toEqual([201, 201, 201]);
    await stack.changeApplied();
  }, 420_000);

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([first, second, canary].map((r) => r?.stop()));
  });

  /** Sends `perIngest` track calls to each ingest, users spread over the partitions; returns the statuses by ingest and the ids. */
  async function sendToEach(label: string, writeKey: string, perIngest = 12) {
    const ids: string[] = [];
    const statuses: number[][] = [];
    for (const ingest of stack.ingests) {
      const outcomes = await Promise.all(
        Array.from({ length: perIngest }, (_, i) =>
          trackCall(ingest.url, writeKey, `${label}-${randomUUID()}`, `user-${i}`),
        ),
      );
      statuses.push(outcomes.map((o) => Number(o.status)));
      ids.push(...outcomes.map((o) => o.messageId));
    }
    return { ids, statuses };
  }

  const isOneOf = (ids: string[]) => (hook: ReceivedWebhook) => ids.includes(String(hook.body.messageId));
  const allOk = (perIngest = 12) => stack.ingests.map(() => Array<number>(perIngest).fill(200));

  /** Sends calls through both ingests, awaits them at `receiver`, and says how many each delivery process delivered meanwhile. */
  async function deliveredThrough(receiver: WebhookReceiver, label: string, writeKey = FIRST_KEY) {
    const before = await Promise.all(stack.deliveries.map(deliveredBy));
    const { ids, statuses } = await sendToEach(label, writeKey);
    expect(statuses).toEqual(allOk());
    const hooks = await receiver.waitFor(ids.length, isOneOf(ids));
    const after = await Promise.all(stack.deliveries.map(deliveredBy));
    return { hooks, ids, byDelivery: after.map((n, i) => n - before[i]) };
  }

  it('delivers what both ingests accept, signed and with the static header, from both delivery processes', async () => {
    const { hooks, byDelivery } = await deliveredThrough(first, 'created');
    expect(hooks.every(signedWithSharedSecret)).toBe(true);
    expect(hooks.map((h) => h.headers['x-team'])).toEqual(hooks.map(() => TEAM_HEADER));
    expect(byDelivery.map((n) => n > 0)).toEqual([true, true]);
  });

  it('moves both delivery processes to a second URL added through the API when the first answers 500', async () => {
    first.respond = () => 500;
    const read = await api.request<{ settings: { webhooks: object[] } }>('GET', '/destinations/hooks');
    const changed = await api.request('PATCH', '/destinations/hooks', {
      // The first URL's header goes back masked: the stored value stays.
      body: { settings: { webhooks: [...read.body.settings.webhooks, { url: second.url('/second') }] } },
      ifMatch: read.etag!,
    });
    expect(changed.status).toBe(200);
    await stack.changeApplied();

    const { hooks, byDelivery } = await deliveredThrough(second, 'second-url');
    expect(hooks.every(signedWithSharedSecret)).toBe(true);
    expect(byDelivery.map((n) => n > 0)).toEqual([true, true]);
    expect(first.received.filter(isOneOf(hooks.map((h) => String(h.body.messageId))))).toEqual([]);
  });

  it('delivers nothing more to a destination disabled through the API, from either ingest', async () => {
    const read = await api.request('GET', '/destinations/hooks');
    const changed = await api.request('PATCH', '/destinations/hooks', {
      body: { enabled: false },
      ifMatch: read.etag!,
    });
    expect([changed.status, changed.body.enabled]).toEqual([200, false]);
    await stack.changeApplied();

    const before = await Promise.all(stack.deliveries.map(deliveredBy));
    const { ids, statuses } = await sendToEach('disabled', FIRST_KEY);
    expect(statuses).toEqual(allOk());
    await canary.waitFor(ids.length, isOneOf(ids));
    expect([...first.received, ...second.received].filter(isOneOf(ids))).toEqual([]);
    expect(await Promise.all(stack.deliveries.map(deliveredBy))).toEqual(before);
  });

  it('accepts both write keys on both ingests while a key is rotated, then only the new one', async () => {
    const read = await api.request('GET', '/sources/web');
    const rotated = await api.request('POST', '/sources/web/write-keys', {
      body: { writeKey: SECOND_KEY },
      ifMatch: read.etag!,
    });
    expect(rotated.status).toBe(200);
    await stack.changeApplied();
    const during = [await sendToEach('old-key', FIRST_KEY), await sendToEach('new-key', SECOND_KEY)];
    expect(during.map((d) => d.statuses)).toEqual([allOk(), allOk()]);
    const duringIds = during.flatMap((d) => d.ids);
    await canary.waitFor(duringIds.length, isOneOf(duringIds));

    const retired = await api.request('DELETE', '/sources/web/previous-write-key', {
      ifMatch: rotated.etag!,
    });
    expect(retired.status).toBe(200);
    await stack.changeApplied();
    const refused = await sendToEach('retired-key', FIRST_KEY, 3);
    expect(refused.statuses).toEqual(stack.ingests.map(() => [401, 401, 401]));
    const accepted = await sendToEach('current-key', SECOND_KEY, 3);
    expect(accepted.statuses).toEqual(allOk(3));
    await canary.waitFor(accepted.ids.length, isOneOf(accepted.ids));
  });

  it('refuses a change made on a stale If-Match with 412, and every instance keeps what the first writer set', async () => {
    const read = await api.request('GET', '/destinations/hooks');
    const firstWriter = await api.request('PATCH', '/destinations/hooks', {
      body: { enabled: true },
      ifMatch: read.etag!,
    });
    expect(firstWriter.status).toBe(200);
    const secondWriter = await api.request('PATCH', '/destinations/hooks', {
      body: { enabled: false },
      ifMatch: read.etag!,
    });
    expect([secondWriter.status, secondWriter.body.error]).toEqual([412, 'stale_revision']);
    await stack.changeApplied();

    // Enabled, as the first writer left it: both ingests' calls reach the second URL again.
    const { byDelivery } = await deliveredThrough(second, 'after-412', SECOND_KEY);
    expect(byDelivery.map((n) => n > 0)).toEqual([true, true]);
  });
});
