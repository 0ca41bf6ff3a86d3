import { createHmac, randomBytes } from 'node:crypto';
import { Analytics } from '@segment/analytics-node';
import { Page } from 'playwright-core';
import { ConsoleInBrowser } from '../support/console-browser';
import { eventually, freshNamespace, testBrokers } from '../support/kafka-test-kit';
import { ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver';
import { awaitWorkspaceApplied } from '../support/workspace-propagation';

const ADMIN_TOKEN = `console-setup-admin-${randomBytes(8).toString('hex')}`;
const SHARED_SECRET = `console-setup-secret-${randomBytes(8).toString('hex')}`;
const STATIC_HEADER = { name: 'X-Shop-Token', value: `shop-token-${randomBytes(8).toString('hex')}` };
const FIRST_DOWN = '{"error":"first receiver <down>"}';
const USER_ID = 'console-setup-user';

const hmacSha1 = (secret: string, raw: Buffer) => createHmac('sha1', secret).update(raw).digest('hex');
const eventOf = (hook: ReceivedWebhook) => hook.body.event;

/**
 * Setup through the console in a real browser, on a workspace held in Kafka (no workspace file):
 * ingest, router, delivery and console as processes on a fresh namespace, real webhook receivers,
 * headless Chromium. Every change is made in the console's forms; calls are sent with
 * @segment/analytics-node and the write key the page showed.
 */
describe('setting up sources and destinations in the console, in a real browser', () => {
  // Each step waits on the whole pipeline and a browser; on a loaded machine that takes minutes, not seconds.
  jest.setTimeout(300_000);
  let stack: ConsoleInBrowser | undefined;
  let pipelineUrls: string[];
  let ingestUrl: string;
  let consoleUrl: string;
  /** The destination set up step by step: its first URL, then the second added later. */
  let first: WebhookReceiver;
  let second: WebhookReceiver;
  /** A second destination on the same source, left enabled: its calls mark how far routing got. */
  let marker: WebhookReceiver;
  /** Requests the first URL answered with a 500, once it is made to fail. */
  const refusedByFirst: ReceivedWebhook[] = [];
  let page: Page;
  let writeKey: string;

  beforeAll(async () => {
    [first, second, marker] = await Promise.all([
      WebhookReceiver.start(),
      WebhookReceiver.start(),
      WebhookReceiver.start(),
    ]);
    // Topic mode: no WORKSPACE_CONFIG, so every service follows the workspace topic.
    const env = {
      KAFKA_BROKERS: testBrokers(),
      TOPIC_NAMESPACE: freshNamespace('console-setup'),
      TOPIC_PARTITIONS: '2',
      WORKSPACE_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      DELIVERY_RETRY_SCHEDULE_MS: '100,200',
    };
    stack = await ConsoleInBrowser.start(env, { ADMIN_TOKEN });
    ({ page, consoleUrl } = stack);
    const { ingest, router, delivery } = stack.pipeline.services;
    ingestUrl = ingest.url;
    pipelineUrls = [ingest.url, router.url, delivery.url];
  }, 420_000);

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([first, second, marker].map((r) => r?.stop()));
  });

  /** Resolves once ingest, router and delivery work by the last change the console made. */
  const applied = () => awaitWorkspaceApplied(consoleUrl, pipelineUrls);

  /**
   * Sends one track call per event with @segment/analytics-node, as a user's backend would, and
   * resolves once the SDK flushed them. Ingest must take every batch: the SDK may retry one a
   * loaded ingest answered 5xx, but nothing may be refused (4xx) or given up on.
   */
  const sendWithSdk = async (key: string, events: string[]) => {
    const client = new Analytics({ writeKey: key, host: ingestUrl, maxEventsInBatch: 1 });
    const statuses: number[] = [];
    const errors: unknown[] = [];
    client.on('http_response', (response) => statuses.push(response.status));
    client.on('error', (error) => errors.push(error));
    for (const event of events) client.track({ userId: USER_ID, event, properties: { plan: 'pro' } });
    await client.closeAndFlush({ timeout: 120_000 });
    expect(errors).toEqual([]);
    expect(statuses.filter((status) => status !== 200 && status < 500)).toEqual([]);
    expect(statuses.filter((status) => status === 200)).toHaveLength(events.length);
  };

  /** What ingest answers a track call sent with `key`, as the SDKs send it (HTTP Basic). */
  const ingestStatus = async (key: string) =>
    (
      await fetch(`${ingestUrl}/v1/track`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
        },
        body: JSON.stringify({ userId: USER_ID, event: 'Key Check', integrations: { All: false } }),
      })
    ).status;

  /**
   * Clicks a form's button and waits for the answer to show `expected`. A change is a Kafka
   * transaction the broker must acknowledge: on a loaded machine that is slow (a starved broker
   * has taken over 30 s to answer one produce request), so both the click, which waits for the
   * form's answer, and the wait for the page are long; an answer that shows an error instead fails
   * at once, saying what the page said.
   */
  const submit = async (button: string, expected: string) => {
    await page.click(button, { timeout: 150_000 });
    await page.locator(`${expected}, .error`).first().waitFor({ timeout: 150_000 });
    const error = page.locator('.error');
    if ((await error.count()) > 0)
      throw new Error(`${button} answered ${page.url()}: ${await error.first().textContent()}`);
  };

  /** Opens the destination's form, lets `change` fill it, saves, and lands on its page. */
  const editDestination = async (id: string, change: () => Promise<void>) => {
    await page.goto(`${consoleUrl}/destinations/${id}`);
    await page.click('#edit-destination');
    await page.waitForURL(`${consoleUrl}/destinations/${id}/edit`);
    await change();
    await submit('#save-destination', '#destination-enabled');
    await page.waitForURL(`${consoleUrl}/destinations/${id}`);
  };

  /** Fills the new-destination form with one URL (and optional settings) connected to source `shop`, and saves it. */
  const createDestination = async (
    id: string,
    name: string,
    url: string,
    fill: () => Promise<void> = async () => {},
  ) => {
    await page.goto(`${consoleUrl}/destinations`);
    await page.click('#new-destination');
    await page.waitForURL(`${consoleUrl}/destinations/new`);
    await page.fill('form#destination-form [name="id"]', id);
    await page.fill('form#destination-form [name="name"]', name);
    await page.check('[name="source.shop"]');
    await page.fill('[name="webhook0.url"]', url);
    await fill();
    expect(await page.isChecked('[name="enabled"]')).toBe(true);
    await submit('#save-destination', '#destination-enabled');
    await page.waitForURL(`${consoleUrl}/destinations/${id}`);
    expect(await page.textContent('#destination-enabled')).toBe('yes');
  };

  it('logs in through the form', async () => {
    await page.goto(`${consoleUrl}/sources`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.fill('input[name=token]', ADMIN_TOKEN);
    await page.click('form[action="/login"] button');
    await page.waitForURL(`${consoleUrl}/destinations`);
    expect(await page.locator('tr.destination').count()).toBe(0);
  });

  it('creates a source and shows its write key once, with setup for each SDK', async () => {
    await page.goto(`${consoleUrl}/sources`);
    expect(await page.locator('tr.source').count()).toBe(0);
    await page.click('#new-source');
    await page.waitForURL(`${consoleUrl}/sources/new`);
    await page.fill('#source-id', 'shop');
    await page.fill('#source-name', 'Shop backend');
    await submit('#create-source', '#write-key');
    writeKey = ((await page.locator('#write-key').textContent()) ?? '').trim();
    expect(writeKey).toMatch(/^\S{22,}$/);
    expect(await page.textContent('#ingest-url')).toBe(ingestUrl);
    for (const sdk of ['analytics-js', 'analytics-next', 'analytics-node', 'analytics-go', 'curl'])
      expect(await page.textContent(`pre#snippet-${sdk}`)).toContain(writeKey);

    // Lists show the key masked only.
    await page.goto(`${consoleUrl}/sources`);
    expect(await page.locator('tr.source').evaluateAll((rows) => rows.map((r) => r.dataset.id))).toEqual([
      'shop',
    ]);
    expect(await page.content()).not.toContain(writeKey);
  });

  it('creates a destination with a static header and a shared secret; calls sent with the key arrive signed, with the header', async () => {
    await createDestination('hooks', 'Hooks', first.url('/first'), async () => {
      await page.fill('[name="webhook0.header0.name"]', STATIC_HEADER.name);
      await page.fill('[name="webhook0.header0.value"]', STATIC_HEADER.value);
      await page.fill('[name="sharedSecret"]', SHARED_SECRET);
    });
    // The page shows the secrets masked, never in clear.
    const shown = await page.content();
    expect(shown).not.toContain(SHARED_SECRET);
    expect(shown).not.toContain(STATIC_HEADER.value);
    await createDestination('marker', 'Marker', marker.url('/marker'));
    await applied();

    await sendWithSdk(writeKey, ['Order Completed', 'Order Refunded']);
    const hooks = await first.waitFor(
      2,
      (h) => ['Order Completed', 'Order Refunded'].includes(eventOf(h) as string),
      90_000,
    );
    for (const hook of hooks) {
      expect(hook.path).toBe('/first');
      expect(hook.headers['x-signature']).toBe(hmacSha1(SHARED_SECRET, hook.raw));
      expect(hook.headers[STATIC_HEADER.name.toLowerCase()]).toBe(STATIC_HEADER.value);
      expect(hook.body).toMatchObject({ type: 'track', userId: USER_ID, properties: { plan: 'pro' } });
    }
  });

  it('switched off in the form, the destination gets no more requests while another on the source still does', async () => {
    await editDestination('hooks', () => page.uncheck('[name="enabled"]'));
    expect(await page.textContent('#destination-enabled')).toBe('no');
    await applied();
    const before = first.received.length;

    await sendWithSdk(writeKey, ['While Off 1', 'While Off 2', 'While Off 3']);
    await sendWithSdk(writeKey, ['Marker After Off']);
    // The marker destination has every call, the marker last: routing went past the calls sent
    // while the destination was off.
    await marker.waitFor(
      4,
      (h) => ['While Off 1', 'While Off 2', 'While Off 3', 'Marker After Off'].includes(eventOf(h) as string),
      90_000,
    );
    expect(first.received.slice(before).map(eventOf)).toEqual([]);
  });

  it('deletes a destination after asking for confirmation', async () => {
    await page.goto(`${consoleUrl}/destinations/marker`);
    await page.click('#delete-destination');
    await page.waitForURL(`${consoleUrl}/destinations/marker/delete`);
    await submit('#confirm-delete', 'tr.destination');
    await page.waitForURL(`${consoleUrl}/destinations`);
    // Still listed by the attempts it has left, but no longer set up: nothing to edit or delete.
    expect(await page.locator('#edit-hooks').count()).toBe(1);
    expect(await page.locator('#edit-marker').count()).toBe(0);
    expect((await page.request.get(`${consoleUrl}/api/v1/destinations/marker`)).status()).toBe(404);
  });

  it('with a second URL added and the first answering 500, the second receives the calls, signed', async () => {
    first.respond = (hook) => {
      refusedByFirst.push(hook);
      return { status: 500, body: FIRST_DOWN };
    };
    await editDestination('hooks', async () => {
      // Left as shown, the masked header value and the empty secret field keep what is stored.
      expect(await page.inputValue('[name="webhook0.header0.value"]')).not.toBe(STATIC_HEADER.value);
      await page.fill('[name="webhook1.url"]', second.url('/second'));
      await page.check('[name="enabled"]');
    });
    expect(await page.textContent('#destination-enabled')).toBe('yes');
    expect(await page.locator('li.webhook').count()).toBe(2);
    await applied();

    const events = ['After Failover 1', 'After Failover 2'];
    await sendWithSdk(writeKey, events);
    const hooks = await second.waitFor(2, (h) => events.includes(eventOf(h) as string), 90_000);
    for (const hook of hooks) {
      expect(hook.path).toBe('/second');
      expect(hook.headers['x-signature']).toBe(hmacSha1(SHARED_SECRET, hook.raw));
    }
    // Each was offered to the first URL before, with its header, and refused.
    const refused = refusedByFirst.filter((h) => events.includes(eventOf(h) as string));
    expect(new Set(refused.map(eventOf))).toEqual(new Set(events));
    for (const hook of refused)
      expect(hook.headers[STATIC_HEADER.name.toLowerCase()]).toBe(STATIC_HEADER.value);
  });

  it('rotates the write key: both keys work until the previous one is retired, then it gets 401', async () => {
    await page.goto(`${consoleUrl}/sources`);
    await submit('#rotate-shop', '#write-key');
    const newKey = ((await page.locator('#write-key').textContent()) ?? '').trim();
    expect(newKey).toMatch(/^\S{22,}$/);
    expect(newKey).not.toBe(writeKey);
    await applied();
    expect(await ingestStatus(writeKey)).toBe(200);
    expect(await ingestStatus(newKey)).toBe(200);

    await submit('#retire-previous-key', '#rotate-shop');
    await page.waitForURL(`${consoleUrl}/sources`);
    await applied();
    expect(await ingestStatus(writeKey)).toBe(401);
    expect(await ingestStatus(newKey)).toBe(200);

    // The SDK, set up with the new key, is delivered to as before.
    await sendWithSdk(newKey, ['With New Key']);
    await second.waitFor(1, (h) => eventOf(h) === 'With New Key', 90_000);
  });

  it('"Send a test event" shows what each URL answered', async () => {
    await page.goto(`${consoleUrl}/destinations/hooks`);
    await submit('#send-test-event', '#test-results');
    await page.waitForURL(`${consoleUrl}/destinations/hooks/test`);
    const results = page.locator('#test-results tr.test-result');
    expect(await results.evaluateAll((rows) => rows.map((r) => r.dataset.status))).toEqual(['500', '200']);
    expect(await results.first().locator('pre.response-body').textContent()).toBe(FIRST_DOWN);
    await second.waitFor(1, (h) => eventOf(h) === 'Switchyard Test Event', 90_000);
  });

  it('lists each change on the audit page, secrets masked, and filters it by resource', async () => {
    const changes = [
      'source:shop:create',
      'destination:hooks:create',
      'destination:marker:create',
      'destination:hooks:update',
      'destination:marker:delete',
      'destination:hooks:update',
      'source:shop:update',
      'source:shop:update',
    ];
    await eventually(
      async () =>
        ((await (await page.request.get(`${consoleUrl}/api/v1/audit`)).json()) as { changes: unknown[] })
          .changes.length >= changes.length,
      90_000,
      'every change in the audit trail',
    );
    await page.goto(`${consoleUrl}/audit`);
    const listed = () =>
      page
        .locator('tr.change')
        .evaluateAll((rows) => rows.map((r) => `${r.dataset.kind}:${r.dataset.id}:${r.dataset.action}`));
    // Newest first.
    expect(await listed()).toEqual([...changes].reverse());
    const shown = await page.content();
    expect(shown).not.toContain(SHARED_SECRET);
    expect(shown).not.toContain(STATIC_HEADER.value);
    expect(shown).not.toContain(writeKey);

    await page.selectOption('#audit-kind', 'destination');
    await page.fill('#audit-id', 'hooks');
    await page.click('#audit-apply');
    await page.waitForURL(/\/audit\?/);
    expect(await listed()).toEqual([
      'destination:hooks:update',
      'destination:hooks:update',
      'destination:hooks:create',
    ]);
  });
});
