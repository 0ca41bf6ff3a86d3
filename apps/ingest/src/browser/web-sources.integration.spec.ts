import { Call, CALL_TYPES, IngestedEvent, topicNames } from '@switchyard/contracts';
import { freshNamespace, TopicReader } from '../../../../test/support/kafka-test-kit';
import { RunningIngest, startTestIngest } from '../../test-support/ingest-harness';
import { simpleWorkspace, TEST_WRITE_KEY } from '../../../../test/support/workspace-file';

const PAGE_ORIGIN = 'http://127.0.0.1:5555';
const GUARDED_KEY = 'guarded-write-key-01';
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

/** One source open to any origin, one that lists the origins allowed to use it. */
function workspace() {
  const config = simpleWorkspace();
  config.sources.push({
    id: 'shop',
    name: 'Shop',
    writeKey: GUARDED_KEY,
    allowedOrigins: ['https://shop.example.com', 'https://*.example.org'],
  } as (typeof config.sources)[number]);
  config.destinations[0].sources.push('shop');
  return config;
}

describe('web and mobile sources at ingest (real broker)', () => {
  let ingest: RunningIngest;
  let reader: TopicReader<IngestedEvent>;

  beforeAll(async () => {
    const namespace = freshNamespace('web');
    ingest = await startTestIngest(namespace, workspace());
    reader = await TopicReader.start<IngestedEvent>([topicNames(namespace).events]);
  });

  afterAll(async () => {
    await reader?.stop();
    await ingest?.close();
  });

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${ingest.url}${path}`, {
      method: 'POST',
      headers: { authorization: basic(TEST_WRITE_KEY), ...headers },
      body,
    });
  const callsOf = async (anonymousId: string, count: number): Promise<Call[]> =>
    (await reader.waitFor(count, (r) => r.value.call.anonymousId === anonymousId)).map((r) => r.value.call);
  const metrics = async () => (await fetch(`${ingest.url}/metrics`)).text();
  const counter = (text: string, series: string) =>
    Number(new RegExp(`^${series.replace(/[{}"]/g, '\\$&')} (\\d+)`, 'm').exec(text)?.[1] ?? 0);

  describe('CORS', () => {
    it('answers a preflight with 204, the origin, the methods, the requested headers and a max-age', async () => {
      const res = await fetch(`${ingest.url}/v1/t`, {
        method: 'OPTIONS',
        headers: {
          origin: PAGE_ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type,x-retry-count',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      expect(res.headers.get('access-control-allow-headers')).toBe(
        'authorization,content-type,x-retry-count',
      );
      expect(res.headers.get('access-control-max-age')).toBe('86400');
      expect(res.headers.get('vary')).toBe('Origin');
    });

    it('names Content-Type and Authorization when the preflight asks for no headers', async () => {
      const res = await fetch(`${ingest.url}/v1/batch`, {
        method: 'OPTIONS',
        headers: { origin: PAGE_ORIGIN, 'access-control-request-method': 'POST' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-headers')).toMatch(/Content-Type, Authorization/);
    });

    it('lets the page read the answers, refusals included', async () => {
      const ok = await post('/v1/t', JSON.stringify({ anonymousId: 'cors-a', event: 'E' }), {
        origin: PAGE_ORIGIN,
        'content-type': 'text/plain',
      });
      expect([ok.status, ok.headers.get('access-control-allow-origin')]).toEqual([200, PAGE_ORIGIN]);
      const bad = await post('/v1/t', '{"anonymousId":', {
        origin: PAGE_ORIGIN,
        'content-type': 'text/plain',
      });
      expect([bad.status, bad.headers.get('access-control-allow-origin')]).toEqual([400, PAGE_ORIGIN]);
    });

    it('refuses a call from an origin its source does not list with a 403, and takes the ones it lists', async () => {
      const body = JSON.stringify({ anonymousId: 'guarded-anon', event: 'E' });
      const refused = await post('/v1/t', body, {
        origin: 'https://evil.example.net',
        authorization: basic(GUARDED_KEY),
        'content-type': 'text/plain',
      });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({
        success: false,
        error: 'origin_not_allowed',
        message: expect.stringContaining('https://evil.example.net'),
      });
      for (const origin of ['https://shop.example.com', 'https://www.example.org']) {
        const res = await post('/v1/t', body, {
          origin,
          authorization: basic(GUARDED_KEY),
          'content-type': 'text/plain',
        });
        expect([origin, res.status]).toEqual([origin, 200]);
      }
      // Servers and apps send no Origin: allowedOrigins is about pages only.
      expect(
        (await post('/v1/t', body, { authorization: basic(GUARDED_KEY), 'content-type': 'application/json' }))
          .status,
      ).toBe(200);
      expect(await callsOf('guarded-anon', 3)).toHaveLength(3);
      const settings = await fetch(`${ingest.url}/v1/projects/${GUARDED_KEY}/settings`, {
        headers: { origin: 'https://evil.example.net' },
      });
      expect(settings.status).toBe(403);
    });
  });

  describe('bodies and paths', () => {
    it.each([
      ['text/plain', { 'content-type': 'text/plain' }],
      ['text/plain with a charset', { 'content-type': 'text/plain;charset=UTF-8' }],
      ['no content type (a beacon)', {}],
    ])('parses a %s body as JSON', async (name, headers) => {
      const anonymousId = `body-${name.replace(/\W+/g, '-')}`;
      const res = await post('/v1/t', JSON.stringify({ anonymousId, event: 'Beaconed' }), headers);
      expect(res.status).toBe(200);
      const [call] = await callsOf(anonymousId, 1);
      expect(call).toMatchObject({ type: 'track', event: 'Beaconed' });
    });

    it('accepts the short paths /v1/i, t, p, s, g, a and the batch at /v1/b', async () => {
      const anonymousId = 'short-paths';
      const bodies: Array<[string, object]> = [
        ['i', { traits: { plan: 'pro' } }],
        ['t', { event: 'Short' }],
        ['p', { name: 'Home' }],
        ['s', { name: 'Dashboard' }],
        ['g', { groupId: 'g-1' }],
        ['a', { userId: 'short-user', previousId: anonymousId }],
      ];
      for (const [path, body] of bodies) {
        const res = await post(`/v1/${path}`, JSON.stringify({ anonymousId, ...body }), {
          'content-type': 'text/plain',
        });
        expect([path, res.status]).toEqual([path, 200]);
      }
      const batch = await post(
        '/v1/b',
        JSON.stringify({
          writeKey: TEST_WRITE_KEY,
          batch: [{ type: 'track', anonymousId, event: 'Batched' }],
        }),
        { 'content-type': 'text/plain', authorization: '' },
      );
      expect(batch.status).toBe(200);
      const calls = await callsOf(anonymousId, 7);
      // i, t, p, s, g, a are the call types in CALL_TYPES' order; the batch held one track.
      expect(calls.map((c) => c.type)).toEqual([...CALL_TYPES, 'track']);
    });

    it('gives text/plain the same limits and errors as JSON', async () => {
      const answers = async (type: string) => {
        const malformed = await post('/v1/t', '{"anonymousId":', { 'content-type': type });
        const oversize = await post('/v1/b', JSON.stringify({ batch: [{ pad: 'x'.repeat(600_000) }] }), {
          'content-type': type,
        });
        const error = (res: Response) => res.json() as Promise<{ error: string; message: string }>;
        return [
          malformed.status,
          (await error(malformed)).error,
          oversize.status,
          (await error(oversize)).message,
        ];
      };
      const json = await answers('application/json');
      expect(json.slice(0, 3)).toEqual([400, 'bad_request', 413]);
      expect(await answers('text/plain')).toEqual(json);
    });

    it('still refuses other body types on the Tracking API, and text/plain elsewhere', async () => {
      expect(
        (await post('/v1/t', 'anonymousId=a', { 'content-type': 'application/x-www-form-urlencoded' }))
          .status,
      ).toBe(415);
      const admin = await fetch(`${ingest.url}/admin/v1/deletions`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{}',
      });
      expect(admin.status).toBe(415);
    });

    it('answers analytics.js telemetry at /v1/m without storing it', async () => {
      const before = await metrics();
      const res = await post(
        '/v1/m',
        JSON.stringify({
          series: [
            {
              type: 'Counter',
              metric: 'analytics_js.invoke',
              value: 1,
              tags: { library: 'analytics.js', library_version: 'next-1.84.3', type: 'track' },
            },
          ],
        }),
        { 'content-type': 'text/plain', authorization: '', origin: PAGE_ORIGIN },
      );
      expect([res.status, await res.json()]).toEqual([200, { success: true }]);
      const after = await metrics();
      for (const type of ['identify', 'track', 'page', 'screen', 'group', 'alias']) {
        const series = `switchyard_ingest_calls_accepted_total{type="${type}"}`;
        expect([type, counter(after, series)]).toEqual([type, counter(before, series)]);
      }
    });
  });

  describe('context.ip', () => {
    it('is the client address when the call has none, and X-Forwarded-For is ignored by default', async () => {
      await post('/v1/t', JSON.stringify({ anonymousId: 'ip-default', event: 'E' }), {
        'content-type': 'text/plain',
        'x-forwarded-for': '203.0.113.9',
      });
      await post(
        '/v1/t',
        JSON.stringify({ anonymousId: 'ip-default', event: 'Own', context: { ip: '198.51.100.4' } }),
        { 'content-type': 'text/plain' },
      );
      const [first, own] = await callsOf('ip-default', 2);
      expect(first.context.ip).toBe('127.0.0.1');
      expect(own.context.ip).toBe('198.51.100.4');
    });

    it('is the forwarded client when INGEST_TRUST_PROXY trusts the proxy in front', async () => {
      const namespace = freshNamespace('web-proxy');
      const proxied = await startTestIngest(namespace, workspace(), {
        INGEST_TRUST_PROXY: '1',
      });
      const proxiedReader = await TopicReader.start<IngestedEvent>([topicNames(namespace).events]);
      try {
        const res = await fetch(`${proxied.url}/v1/t`, {
          method: 'POST',
          headers: {
            authorization: basic(TEST_WRITE_KEY),
            'content-type': 'text/plain',
            'x-forwarded-for': '198.51.100.77, 203.0.113.9',
          },
          body: JSON.stringify({ anonymousId: 'ip-proxied', event: 'E' }),
        });
        expect(res.status).toBe(200);
        const [record] = await proxiedReader.waitFor(1);
        // One trusted hop: the address that hop saw (the last one it appended).
        expect(record.value.call.context.ip).toBe('203.0.113.9');
      } finally {
        await proxiedReader.stop();
        await proxied.close();
      }
    });
  });

  describe('analytics.js from ingest', () => {
    it('serves the settings with the Segment.io integration pointing at this ingest', async () => {
      const res = await fetch(`${ingest.url}/v1/projects/${TEST_WRITE_KEY}/settings`, {
        headers: { origin: PAGE_ORIGIN },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
      const settings = (await res.json()) as { integrations: Record<string, Record<string, unknown>> };
      expect(settings.integrations['Segment.io']).toMatchObject({
        apiKey: TEST_WRITE_KEY,
        apiHost: `${new URL(ingest.url).host}/v1`,
        protocol: 'http',
      });
    });

    it('serves the pinned bundle with the write key embedded and every Segment host replaced by this ingest', async () => {
      const res = await fetch(`${ingest.url}/analytics.js/v1/${TEST_WRITE_KEY}/analytics.min.js`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(res.headers.get('content-encoding')).toBe('gzip'); // fetch asks for it and inflates it
      const text = await res.text();
      expect(text).toContain(`window.analyticsWriteKey="${TEST_WRITE_KEY}"`);
      expect(text).toContain(`"${ingest.url}/analytics-next/bundles/"`);
      expect(text).toContain(`"${new URL(ingest.url).host}/v1"`);
      expect(text).not.toMatch(/cdn\.segment\.com|api\.segment\.io|sourceMappingURL/);
      const plain = await fetch(`${ingest.url}/analytics.js/v1/${TEST_WRITE_KEY}/analytics.min.js`, {
        headers: { 'accept-encoding': 'identity' },
      });
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(await plain.text()).toBe(text);
    });

    it('serves the lazily loaded chunks beside it, and 404s what it does not have', async () => {
      const bundle = await (
        await fetch(`${ingest.url}/analytics.js/v1/${TEST_WRITE_KEY}/analytics.min.js`)
      ).text();
      // webpack's chunk table: id → name, then id → content hash.
      const id = /(\d+):"auto-track"/.exec(bundle)?.[1];
      const hash = new RegExp(`[{,]${id}:"([0-9a-f]{20})"`).exec(bundle)?.[1];
      expect([id, hash]).toEqual([expect.any(String), expect.any(String)]);
      const res = await fetch(`${ingest.url}/analytics-next/bundles/auto-track.bundle.${hash}.js`, {
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toContain('immutable');
      expect(await res.text()).toContain('auto-track');
      expect((await fetch(`${ingest.url}/analytics-next/bundles/..%2Fpackage.json`)).status).toBe(404);
      expect((await fetch(`${ingest.url}/analytics.js/v1/not-a-known-key/analytics.min.js`)).status).toBe(
        404,
      );
      const unknown = await fetch(`${ingest.url}/v1/projects/not-a-known-key/settings`);
      expect([unknown.status, ((await unknown.json()) as { message: string }).message]).toEqual([
        404,
        'unknown write key',
      ]);
    });
  });

  it('counts every refusal by reason, those made before the controller runs included', async () => {
    const before = await metrics();
    await post('/v1/t', '{"anonymousId":', { 'content-type': 'text/plain' });
    await post('/v1/b', JSON.stringify({ batch: [{ pad: 'x'.repeat(600_000) }] }), {
      'content-type': 'text/plain',
    });
    await post('/v1/t', 'a=b', { 'content-type': 'application/x-www-form-urlencoded' });
    await fetch(`${ingest.url}/nowhere`);
    await post('/v1/t', '{}', { origin: 'https://evil.example.net', authorization: basic(GUARDED_KEY) });
    await post('/v1/t', JSON.stringify({ anonymousId: 'x', event: 'E' }), {
      authorization: basic('not-a-known-key'),
    });
    const after = await metrics();
    const reasons = [
      'bad_request',
      'payload_too_large',
      'unsupported_media_type',
      'not_found',
      'origin_not_allowed',
      'unauthorized',
    ];
    const deltas = reasons.map((reason) => {
      const series = `switchyard_ingest_requests_rejected_total{reason="${reason}"}`;
      return [reason, counter(after, series) - counter(before, series)];
    });
    expect(deltas).toEqual(reasons.map((reason) => [reason, 1]));
  });
});
