import { createHmac, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { RunningPipeline, startPipeline } from '../support/pipeline-processes';
import { ReceivedWebhook } from '../support/webhook-receiver';

const WRITE_KEY = 'mobile-write-key-01';
const SECRET = 'mobile-shared-secret';

/**
 * The requests Segment's mobile SDKs make, replayed byte for byte in their shape, through ingest,
 * Kafka, router and delivery to a webhook. The SDKs build `https://<apiHost>/b`; in production
 * TLS ends at the ingress in front of ingest, so the replay speaks plain HTTP to ingest itself.
 *
 * analytics-kotlin 1.24.1 (segmentio/analytics-kotlin @ a14649b):
 * - core/src/main/java/com/segment/analytics/kotlin/core/HTTPClient.kt — `RequestFactory.upload`:
 *   POST https://$apiHost/b, `Content-Type: text/plain`, `Content-Encoding: gzip`, chunked
 *   streaming, `User-Agent: analytics-kotlin/<version>`; no Authorization header.
 *   `RequestFactory.settings`: GET https://$cdnHost/projects/$writeKey/settings.
 * - core/src/main/java/com/segment/analytics/kotlin/core/utilities/EventsFileManager.kt — the body:
 *   `{"batch":[` events joined by `,` `],"sentAt":"…","writeKey":"…"}`.
 * - core/src/main/java/com/segment/analytics/kotlin/core/Events.kt — every event carries `userId`,
 *   `""` for an anonymous user; utilities/DateTimeUtils.kt — times as `2023-04-19T04:03:46.880Z`.
 *
 * analytics-swift 1.9.4 (segmentio/analytics-swift @ c9a0d63):
 * - Sources/Segment/Utilities/Networking/HTTPClient.swift — `startBatchUpload`: POST
 *   https://\(apiHost)/b uploaded from the batch file; `configuredRequest`: `Content-Type:
 *   application/json; charset=utf-8`, `User-Agent: analytics-ios/<version>`, `Accept-Encoding:
 *   gzip`, `X-Retry-Count` on retries; no Authorization header.
 * - Sources/Segment/Utilities/Storage/Types/DirectoryStore.swift — the file: a line `{ "batch": [`,
 *   one line per event, the later ones prefixed with `,`, then `],"sentAt":"…","writeKey":"…"}`.
 * - Sources/Segment/Types.swift — events carry `_metadata`, `integrations`, `context`; nil ids are left out.
 */
describe('Segment mobile SDK requests, delivered end to end', () => {
  let pipeline: RunningPipeline;

  beforeAll(async () => {
    pipeline = await startPipeline('conf-mobile', SECRET, [{ writeKey: WRITE_KEY }]);
  }, 180_000);
  afterAll(() => pipeline?.stop());

  /** A request as the SDK's HTTP stack writes it: exact headers, the body in `chunks` (chunked when more than one). */
  function send(
    method: string,
    path: string,
    headers: Record<string, string>,
    chunks: Buffer[] = [],
  ): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const url = new URL(path, pipeline.processes.ingest.url);
      const req = request(url, { method, headers }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  }

  const mobileContext = (library: string, version: string, os: { name: string; version: string }) => ({
    app: { name: 'Switchyard Demo', version: '3.1.0', build: '310', namespace: 'com.example.demo' },
    device: {
      id: randomUUID(),
      manufacturer: 'Example',
      model: 'Phone 9',
      name: 'phone9',
      type: os.name === 'iOS' ? 'ios' : 'android',
    },
    os,
    screen: { width: 1170, height: 2532, density: 3 },
    network: { wifi: true, cellular: false, bluetooth: false },
    library: { name: library, version },
    locale: 'en-US',
    timezone: 'Europe/Berlin',
    instanceId: randomUUID(),
  });
  const metadata = { bundled: [], unbundled: [], bundledIds: [] };

  /** The five calls a mobile app makes (no page), as the SDK serialises them for one user. */
  function appEvents(
    userId: string,
    anonymousId: string,
    context: object,
    anonymousUserId?: string,
  ): object[] {
    const base = () => ({
      messageId: randomUUID(),
      anonymousId,
      integrations: {},
      context,
      timestamp: new Date().toISOString(),
      _metadata: metadata,
    });
    return [
      {
        ...base(),
        type: 'track',
        event: 'Opened Before Sign-up',
        properties: {},
        ...(anonymousUserId === undefined ? {} : { userId: anonymousUserId }),
      },
      { ...base(), type: 'alias', userId, previousId: anonymousId },
      { ...base(), type: 'identify', userId, traits: { name: 'Ada', plan: 'pro' } },
      { ...base(), type: 'track', userId, event: 'Order Completed', properties: { revenue: 42.5 } },
      { ...base(), type: 'screen', userId, name: 'Dashboard', category: '', properties: {} },
      { ...base(), type: 'group', userId, groupId: 'g-1', traits: { name: 'Acme' } },
    ];
  }

  async function expectDelivered(
    anonymousId: string,
    userId: string,
    library: string,
  ): Promise<ReceivedWebhook[]> {
    const hooks = await pipeline.receiver.waitFor(6, (h) => h.body.anonymousId === anonymousId);
    expect(hooks.map((h) => `${h.body.type}:${h.body.event ?? ''}`).sort()).toEqual([
      'alias:',
      'group:',
      'identify:',
      'screen:',
      'track:Opened Before Sign-up',
      'track:Order Completed',
    ]);
    for (const hook of hooks) {
      expect(hook.headers['x-signature']).toBe(createHmac('sha1', SECRET).update(hook.raw).digest('hex'));
      expect(hook.body.context).toMatchObject({
        library: { name: library },
        ip: '127.0.0.1',
        os: expect.any(Object),
        device: expect.any(Object),
      });
    }
    const byKind = Object.fromEntries(
      hooks.map((h) => [`${h.body.type}${h.body.event ? `:${h.body.event}` : ''}`, h.body]),
    );
    expect(byKind.alias).toMatchObject({ 'User ID': userId, 'Previous ID': anonymousId });
    expect(byKind.identify).toMatchObject({ userId, traits: { name: 'Ada', plan: 'pro' } });
    expect(byKind['track:Order Completed']).toMatchObject({ userId, properties: { revenue: 42.5 } });
    expect(byKind.screen).toMatchObject({ userId, name: 'Dashboard' });
    expect(byKind.group).toMatchObject({ userId, groupId: 'g-1' });
    return hooks;
  }

  it('analytics-kotlin: settings, then a gzipped text/plain batch to /v1/b with the write key in the body', async () => {
    const settings = await send('GET', `/v1/projects/${WRITE_KEY}/settings`, {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'analytics-kotlin/1.24.1',
    });
    expect(settings.status).toBe(200);
    // The SDK takes its apiHost from these settings, and posts to https://<apiHost>/b.
    const segment = (JSON.parse(settings.body) as { integrations: Record<string, { apiHost: string }> })
      .integrations['Segment.io'];
    expect(segment.apiHost).toBe(`${new URL(pipeline.processes.ingest.url).host}/v1`);

    const anonymousId = randomUUID();
    const events = appEvents(
      'kotlin-user',
      anonymousId,
      mobileContext('analytics-kotlin', '1.24.1', { name: 'Android', version: '14' }),
      '',
    );
    const file = `{"batch":[${events.map((e) => JSON.stringify(e)).join(',')}],"sentAt":"${new Date().toISOString()}","writeKey":"${WRITE_KEY}"}`;
    const gzipped = gzipSync(file);
    const res = await send(
      'POST',
      new URL(`http://${segment.apiHost}/b`).pathname,
      {
        'content-type': 'text/plain',
        'content-encoding': 'gzip',
        'user-agent': 'analytics-kotlin/1.24.1',
        'accept-encoding': 'gzip',
        connection: 'Keep-Alive',
      },
      [gzipped.subarray(0, 100), gzipped.subarray(100)],
    );
    expect([res.status, res.body]).toEqual([200, '{"success":true}']);
    const hooks = await expectDelivered(anonymousId, 'kotlin-user', 'analytics-kotlin');
    // Before sign-up the SDK sends `"userId": ""`: the call is the anonymous visitor's.
    expect(hooks.find((h) => h.body.event === 'Opened Before Sign-up')?.body).toMatchObject({
      userId: '',
      anonymousId,
    });
  });

  it('analytics-swift: a batch file of JSON lines to /v1/b with the write key in the body', async () => {
    const anonymousId = randomUUID().toUpperCase(); // Foundation's UUID().uuidString
    const events = appEvents(
      'swift-user',
      anonymousId,
      mobileContext('analytics-swift', '1.9.4', { name: 'iOS', version: '17.4' }),
    );
    const lines = [
      '{ "batch": [',
      ...events.map((e, i) => `${i === 0 ? '' : ','}${JSON.stringify(e)}`),
      `],"sentAt":"${new Date().toISOString()}","writeKey":"${WRITE_KEY}"}`,
    ];
    const file = Buffer.from(lines.map((line) => `${line}\n`).join(''));
    const res = await send(
      'POST',
      '/v1/b',
      {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'analytics-ios/1.9.4',
        'accept-encoding': 'gzip',
        'x-retry-count': '1',
        'content-length': String(file.length),
      },
      [file],
    );
    expect([res.status, res.body]).toEqual([200, '{"success":true}']);
    await expectDelivered(anonymousId, 'swift-user', 'analytics-swift');
  });
});
