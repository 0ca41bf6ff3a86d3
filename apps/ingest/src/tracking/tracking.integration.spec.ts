import { gzipSync } from 'node:zlib';
import { Call, IngestedEvent, topicNames } from '@switchyard/contracts';
import { freshNamespace, TopicReader } from '../../../../test/support/kafka-test-kit';
import { RunningIngest, startTestIngest } from '../../test-support/ingest-harness';
import { simpleWorkspace, TEST_WRITE_KEY } from '../../../../test/support/workspace-file';

const auth = `Basic ${Buffer.from(`${TEST_WRITE_KEY}:`).toString('base64')}`;

describe('ingest → Kafka (real broker)', () => {
  let ingest: RunningIngest;
  let reader: TopicReader<IngestedEvent>;
  let namespace: string;

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${ingest.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: auth, ...headers },
      body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
    });

  beforeAll(async () => {
    namespace = freshNamespace('ingest');
    // A long linger makes concurrent requests share Kafka batches, as they do under load.
    ingest = await startTestIngest(namespace, simpleWorkspace(), {
      INGEST_PRODUCE_LINGER_MS: '50',
    });
    reader = await TopicReader.start<IngestedEvent>([topicNames(namespace).events]);
  });

  afterAll(async () => {
    await reader?.stop();
    await ingest?.close();
  });

  const callsOf = async (userId: string, count: number): Promise<Call[]> =>
    (await reader.waitFor(count, (r) => r.value.call.userId === userId)).map((r) => r.value.call);

  it('writes every single-call endpoint to the events topic, keyed by source and user', async () => {
    const userId = 'single-user';
    const bodies: Array<[string, object]> = [
      ['identify', { userId, traits: { plan: 'pro' } }],
      ['track', { userId, event: 'Signed Up', properties: { revenue: 1 } }],
      ['page', { userId, name: 'Home', properties: { path: '/' } }],
      ['screen', { userId, name: 'Dashboard' }],
      ['group', { userId, groupId: 'g-1', traits: { name: 'Acme' } }],
      ['alias', { userId, previousId: 'anon-1' }],
    ];
    for (const [type, body] of bodies) {
      const res = await post(`/v1/${type}`, body);
      expect([type, res.status, await res.json()]).toEqual([type, 200, { success: true }]);
    }
    const records = await reader.waitFor(6, (r) => r.value.call.userId === userId);
    expect(records.map((r) => r.value.call.type)).toEqual(bodies.map(([type]) => type));
    expect(new Set(records.map((r) => r.key))).toEqual(new Set([`src-1:${userId}`]));
    expect(records[1].value).toMatchObject({
      sourceId: 'src-1',
      call: { event: 'Signed Up', properties: { revenue: 1 } },
    });
    for (const { value } of records) {
      expect(value.call.messageId).toMatch(/^[0-9a-f-]{36}$/);
      expect(value.call.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it('accepts /v1/batch and /v1/import/ (trailing slash), merging batch context and integrations', async () => {
    const userId = 'batch-user';
    const res = await post('/v1/import/', {
      batch: [
        { type: 'track', userId, event: 'A', timestamp: '2006-01-02T15:04:05-0700', messageId: 'fixed-id' },
        { type: 'identify', userId, integrations: { Webhooks: true } },
      ],
      context: { library: { name: 'test' } },
      integrations: { All: false },
    });
    expect(res.status).toBe(200);
    const [track, identify] = await callsOf(userId, 2);
    expect(track).toMatchObject({
      messageId: 'fixed-id',
      timestamp: '2006-01-02T22:04:05.000Z',
      context: { library: { name: 'test' } },
    });
    expect(identify.integrations).toEqual({ All: false, Webhooks: true });
  });

  it('takes the write key from the body and inflates gzip bodies (analytics-python)', async () => {
    const userId = 'gzip-user';
    const body = gzipSync(
      JSON.stringify({ writeKey: TEST_WRITE_KEY, batch: [{ type: 'track', userId, event: 'Zipped' }] }),
    );
    const res = await post('/v1/batch', body, { 'content-encoding': 'gzip', authorization: '' });
    expect(res.status).toBe(200);
    const [call] = await callsOf(userId, 1);
    expect(call.event).toBe('Zipped');
    expect(call).not.toHaveProperty('writeKey');
  });

  // Their produce requests are over 128 KB, so they also go zstd-compressed: reading them back proves that path.
  it('accepts concurrent requests near the size limit (their Kafka batches stay under the broker limit)', async () => {
    const userId = 'large-user';
    const batch = Array.from({ length: 14 }, (_, i) => ({
      type: 'track',
      userId,
      event: `E${i}`,
      properties: { pad: 'x'.repeat(30_000) },
    }));
    const answers = await Promise.all(Array.from({ length: 6 }, () => post('/v1/batch', { batch })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    await callsOf(userId, 6 * 14);
  });

  it('writes nothing of a batch that holds one invalid message, and says which', async () => {
    const userId = 'mixed-user';
    const res = await post('/v1/batch', {
      batch: [
        { type: 'track', userId, event: 'ok' },
        { type: 'track', userId },
      ],
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      success: false,
      error: 'invalid_messages',
      errors: [{ index: 1, field: 'event' }],
    });
    // A later valid call from the same user arrives alone: the refused batch left nothing behind.
    await post('/v1/track', { userId, event: 'after' });
    const calls = await callsOf(userId, 1);
    expect(calls.map((c) => c.event)).toEqual(['after']);
  });

  describe('bad input gets a clear 4xx and the service keeps serving', () => {
    const big = 'x'.repeat(40 * 1024);
    it.each([
      ['malformed JSON', '/v1/track', '{"userId":', {}, 400, /not valid JSON/],
      [
        'wrong content type',
        '/v1/track',
        'userId=u1',
        { 'content-type': 'application/x-www-form-urlencoded' },
        415,
        /Content-Type application\/json/,
      ],
      [
        'an unsupported encoding',
        '/v1/track',
        '{}',
        { 'content-encoding': 'br' },
        415,
        /Content-Encoding "br"/,
      ],
      [
        'an oversize message',
        '/v1/track',
        JSON.stringify({ userId: 'u', event: 'E', properties: { big } }),
        {},
        413,
        /limit is 32768/,
      ],
      [
        'an oversize request',
        '/v1/batch',
        JSON.stringify({
          batch: Array.from({ length: 20 }, () => ({
            type: 'track',
            userId: 'u',
            event: 'E',
            properties: { p: big.slice(0, 30_000) },
          })),
        }),
        {},
        413,
        /exceeds 512000 bytes/,
      ],
      [
        'too many messages',
        '/v1/batch',
        JSON.stringify({
          batch: Array.from({ length: 2501 }, () => ({ type: 'track', userId: 'u', event: 'E' })),
        }),
        {},
        413,
        /limit is 2500/,
      ],
      ['missing fields', '/v1/group', JSON.stringify({ userId: 'u' }), {}, 400, /groupId is required/],
      [
        'an unknown type in a batch',
        '/v1/batch',
        JSON.stringify({ batch: [{ type: 'purchase', userId: 'u' }] }),
        {},
        400,
        /type must be one of/,
      ],
      ['an unknown endpoint', '/v1/purchase', JSON.stringify({ userId: 'u' }), {}, 404, /unknown endpoint/],
      [
        'a wrong write key',
        '/v1/track',
        JSON.stringify({ userId: 'u', event: 'E' }),
        { authorization: `Basic ${Buffer.from('nope-nope-nope:').toString('base64')}` },
        401,
        /unknown write key/,
      ],
      [
        'no write key',
        '/v1/track',
        JSON.stringify({ userId: 'u', event: 'E' }),
        { authorization: '' },
        401,
        /missing write key/,
      ],
      [
        'a gzip bomb',
        '/v1/batch',
        gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20)),
        { 'content-encoding': 'gzip' },
        413,
        /counted after decompression/,
      ],
    ] as const)('%s', async (_name, path, body, headers, status, message) => {
      const res = await post(path, body, headers);
      expect(res.status).toBe(status);
      const json = (await res.json()) as {
        success: boolean;
        message: string;
        errors?: Array<{ reason: string }>;
      };
      expect(json.success).toBe(false);
      expect([json.message, ...(json.errors ?? []).map((e) => e.reason)].join(' ')).toMatch(message);
    });

    it('answers with the caller X-Request-Id, or a new one', async () => {
      const given = await post(
        '/v1/track',
        { userId: 'rid', event: 'E' },
        { 'x-request-id': 'trace-me-123' },
      );
      expect(given.headers.get('x-request-id')).toBe('trace-me-123');
      const made = await post('/v1/track', { userId: 'rid', event: 'E' });
      expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('is still healthy afterwards', async () => {
      const res = await fetch(`${ingest.url}/health/ready`);
      expect(res.status).toBe(200);
    });
  });
});
