import { connect } from 'node:net';
import { Call, IngestedEvent, topicNames } from '@switchyard/contracts';
import { freshNamespace, TopicReader } from '../../../../test/support/kafka-test-kit';
import { RunningIngest, startTestIngest } from '../../test-support/ingest-harness';
import { simpleWorkspace, TEST_WRITE_KEY } from '../../../../test/support/workspace-file';

const auth = `Basic ${Buffer.from(`${TEST_WRITE_KEY}:`).toString('base64')}`;
const ADMIN_TOKEN = 'admin-token-for-hostile-tests';

/** A track call nested `depth` levels: the body is level 1, `properties` and the objects in it the rest. */
const nestedTrack = (depth: number) =>
  `{"userId":"u","event":"E","properties":${'{"p":'.repeat(depth - 1)}1${'}'.repeat(depth - 1)}}`;

describe('hostile input against a running ingest (real broker)', () => {
  let ingest: RunningIngest;
  let reader: TopicReader<IngestedEvent>;

  const post = (path: string, body: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(`${ingest.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: auth, ...headers },
      body,
    });

  const refusal = async (res: Response) => {
    const json = (await res.json()) as {
      success: boolean;
      message: string;
      errors?: Array<{ index: number; field: string; reason: string }>;
    };
    return { status: res.status, ...json };
  };

  /** The stored text of the call that `userId` sent: what the router, and so the webhook, will see. */
  const storedText = async (userId: string): Promise<{ call: Call; text: string }> => {
    const [record] = await reader.waitFor(1, (r) => r.value.call.userId === userId);
    return { call: record.value.call, text: record.text };
  };

  beforeAll(async () => {
    const namespace = freshNamespace('hostile');
    ingest = await startTestIngest(namespace, simpleWorkspace(), {
      INGEST_HEADERS_TIMEOUT_MS: '1000',
      INGEST_REQUEST_TIMEOUT_MS: '2000',
      ADMIN_TOKEN,
    });
    reader = await TopicReader.start<IngestedEvent>([topicNames(namespace).events]);
  });

  afterAll(async () => {
    await reader?.stop();
    await ingest?.close();
  });

  it.each([
    ['nested 5,000 levels', '/v1/track', nestedTrack(5_000), /more than 64 levels deep; the limit is 64/],
    [
      'nested 100,000 levels',
      '/v1/track',
      `{"userId":"u","event":"E","properties":{"p":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`,
      /the limit is 64/,
    ],
    [
      'arrays nested 200,000 levels in a batch',
      '/v1/batch',
      `{"batch":${'['.repeat(200_000)}${']'.repeat(200_000)}}`,
      /the limit is 64/,
    ],
    ['nested 65 levels, one past the limit', '/v1/track', nestedTrack(65), /the limit is 64/],
    [
      'raw invalid UTF-8',
      '/v1/track',
      Buffer.concat([
        Buffer.from('{"userId":"u","event":"'),
        Buffer.from([0xc3, 0x28, 0xff]),
        Buffer.from('"}'),
      ]),
      /^body is not valid UTF-8$/,
    ],
    [
      'UTF-8 of a lone surrogate (CESU)',
      '/v1/track',
      Buffer.concat([
        Buffer.from('{"userId":"u","event":"'),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('"}'),
      ]),
      /^body is not valid UTF-8$/,
    ],
    ['malformed JSON', '/v1/track', '{"userId":"u",', /body is not valid JSON/],
    ['an empty body', '/v1/track', '', /body is empty/],
  ] as const)('refuses a body %s with 400 and the real cause', async (_name, path, body, reason) => {
    const res = await refusal(await post(path, body));
    expect(res).toMatchObject({ status: 400, success: false });
    expect(res.message).toMatch(reason);
  });

  it('accepts a call nested exactly 64 levels', async () => {
    const res = await post('/v1/track', nestedTrack(64).replace('"userId":"u"', '"userId":"depth-64"'));
    expect(res.status).toBe(200);
    const { call } = await storedText('depth-64');
    expect(JSON.stringify(call.properties).split('{').length - 1).toBe(63);
  });

  it('refuses only the batch messages holding __proto__ or constructor.prototype, each with its path and reason', async () => {
    const body =
      '{"batch":[{"type":"track","userId":"ok","event":"E","properties":{"constructor":"Ferrari"}},' +
      '{"type":"track","userId":"u","event":"E","properties":{"__proto__":{"admin":true}}},' +
      '{"type":"identify","userId":"u","traits":{"a":[{"constructor":{"prototype":{"x":1}}}]}},' +
      '{"type":"track","userId":"u","event":"E","context":{"\\u005f_proto__":1}}]}';
    const res = await refusal(await post('/v1/batch', body));
    expect(res).toMatchObject({ status: 400, message: '3 of 4 message(s) invalid; nothing was accepted' });
    expect(res.errors!.map((e) => [e.index, e.field])).toEqual([
      [1, 'properties.__proto__'],
      [2, 'traits.a.0.constructor.prototype'],
      [3, 'context.__proto__'],
    ]);
    expect(res.errors![0].reason).toMatch(/names a JavaScript prototype and is not accepted/);
    expect(({} as { admin?: boolean }).admin).toBeUndefined();
  });

  it.each([
    ['context.__proto__', '"context":{"__proto__":{"x":1}}'],
    ['context.constructor.prototype', '"context":{"constructor":{"prototype":{"x":1}}}'],
    ['integrations.__proto__', '"integrations":{"__proto__":{"All":false}}'],
    ['context.a.b.c.__proto__', '"context":{"a":{"b":{"c":{"__proto__":{"x":1}}}}}'],
    [
      'context.a.b.c.constructor.prototype',
      '"context":{"a":{"b":{"c":{"constructor":{"prototype":{"x":1}}}}}}',
    ],
    ['integrations.a.b.c.__proto__', '"integrations":{"a":{"b":{"c":{"__proto__":true}}}}'],
  ])('refuses a batch whose batch-level %s names a prototype, naming the field', async (field, fields) => {
    const body = `{"batch":[{"type":"track","userId":"batch-level-hostile","event":"E"}],${fields}}`;
    const res = await refusal(await post('/v1/batch', body));
    expect(res).toMatchObject({
      status: 400,
      message: '1 batch-level field(s) invalid; nothing was accepted',
      errors: [{ field, reason: expect.stringMatching(/names a JavaScript prototype/) }],
    });
    expect(res.errors![0]).not.toHaveProperty('index');
  });

  it.each([
    ['properties.a.b.__proto__', '"properties":{"a":{"b":{"__proto__":{"x":1}}}}'],
    ['context.a.b.constructor.prototype', '"context":{"a":{"b":{"constructor":{"prototype":1}}}}'],
    ['integrations.a.b.__proto__', '"integrations":{"a":{"b":{"__proto__":1}}}'],
  ])('refuses a batch message whose %s names a prototype three levels down', async (field, fields) => {
    const clean = '{"type":"track","userId":"nested-hostile","event":"E"}';
    const hostile = `{"type":"track","userId":"nested-hostile","event":"E",${fields}}`;
    const res = await refusal(await post('/v1/batch', `{"batch":[${clean},${clean},${hostile}]}`));
    expect(res).toMatchObject({ status: 400, errors: [{ index: 2, field }] });
  });

  it('refuses a single call with a top-level __proto__ key with the field named', async () => {
    const res = await refusal(await post('/v1/identify', '{"userId":"u","__proto__":{"polluted":true}}'));
    expect(res).toMatchObject({ status: 400, errors: [{ index: 0, field: '__proto__' }] });
  });

  it.each([
    [
      'a deletion request',
      '/admin/v1/deletions',
      '{"userIds":["u"],"__proto__":{"sourceIds":["other"]}}',
      '__proto__',
    ],
    [
      'an audience sync',
      '/admin/v1/audience-syncs',
      '{"syncId":"s","computation":{"class":"audience","id":"a","name":"n","spaceId":"s","sourceId":"src-1"},"delta":{"added":[{"userId":"u","__proto__":{"value":1}}],"removed":[]}}',
      'delta.added.0.__proto__',
    ],
  ])(
    'refuses %s holding a __proto__ key, naming it (the validators would read the prototype it sets)',
    async (_name, path, body, field) => {
      const res = await refusal(await post(path, body, { authorization: `Bearer ${ADMIN_TOKEN}` }));
      expect(res).toMatchObject({ status: 400 });
      expect(res.errors).toContainEqual({
        field,
        reason: expect.stringMatching(/names a JavaScript prototype/),
      });
    },
  );

  it('keeps plain "constructor" and "prototype" keys in batch-level fields, merged into the message', async () => {
    const res = await post(
      '/v1/batch',
      '{"batch":[{"type":"track","userId":"batch-constructor","event":"E","properties":{"constructor":"Ford"}}],' +
        '"context":{"constructor":"Ford","a":{"prototype":"v2"}},"integrations":{"constructor":{"a":{"prototype":true}}}}',
    );
    expect(res.status).toBe(200);
    const { call } = await storedText('batch-constructor');
    expect(call.properties).toEqual({ constructor: 'Ford' });
    expect(call.context).toMatchObject({ constructor: 'Ford', a: { prototype: 'v2' } });
    expect(call.integrations).toEqual({ constructor: { a: { prototype: true } } });
  });

  it('keeps a plain "constructor" key and "prototype" outside a constructor object', async () => {
    const res = await post(
      '/v1/track',
      '{"userId":"constructor-user","event":"E","properties":{"constructor":"Ferrari","prototype":"v2"}}',
    );
    expect(res.status).toBe(200);
    expect((await storedText('constructor-user')).call.properties).toEqual({
      constructor: 'Ferrari',
      prototype: 'v2',
    });
  });

  it('stores integers beyond 2^53, and numbers beyond a double, digit for digit', async () => {
    const res = await post(
      '/v1/track',
      '{"userId":"big-numbers","event":"E","properties":{"id":12345678901234567890,"neg":-98765432109876543210,"safe":9007199254740991,"huge":1e400,"pi":3.14}}',
    );
    expect(res.status).toBe(200);
    const { text } = await storedText('big-numbers');
    expect(text).toContain(
      '"properties":{"id":12345678901234567890,"neg":-98765432109876543210,"safe":9007199254740991,"huge":1e400,"pi":3.14}',
    );
  });

  it('keeps odd unicode: lone surrogate escapes, NUL, emoji, right-to-left text', async () => {
    const res = await post(
      '/v1/track',
      '{"userId":"unicode","event":"E \\ud800 \\u0000 \\udfff","properties":{"😀":"👩‍👩‍👧","rtl":"שלום","nul":"a\\u0000b"}}',
    );
    expect(res.status).toBe(200);
    const { call } = await storedText('unicode');
    expect(call.event).toBe('E \ud800 \u0000 \udfff');
    expect(call.properties).toEqual({ '😀': '👩‍👩‍👧', rtl: 'שלום', nul: 'a\u0000b' });
  });

  it('answers every generated hostile body with a 2xx or a 4xx, never a 5xx', async () => {
    const random = seeded(20);
    const pieces = [
      '{',
      '}',
      '[',
      ']',
      '"',
      '\\',
      ':',
      ',',
      '1',
      '-',
      'e',
      '.',
      '9'.repeat(30),
      'null',
      'true',
      '"__proto__"',
      '"\\ud800"',
      '\u0000',
      '😀',
      '"userId":"u"',
      '"event":"E"',
      '"batch":',
      '{"type":"track",',
    ];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 300; i++) {
      const parts = Array.from(
        { length: 1 + Math.floor(random() * 60) },
        () => pieces[Math.floor(random() * pieces.length)],
      );
      const body =
        i % 3 === 0 ? `{"userId":"u","event":"E","properties":{"x":${parts.join('')}}}` : parts.join('');
      const bytes =
        i % 7 === 0
          ? Buffer.concat([Buffer.from(body), Buffer.from([0x80 + Math.floor(random() * 0x7f)])])
          : Buffer.from(body);
      const path = i % 2 === 0 ? '/v1/track' : '/v1/batch';
      const status = (await post(path, bytes)).status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      expect([path, body, status < 500]).toEqual([path, body, true]);
    }
    expect(statuses.get(400)).toBeGreaterThan(0);
  });

  it('closes a connection whose headers do not arrive within INGEST_HEADERS_TIMEOUT_MS', async () => {
    const { port } = new URL(ingest.url);
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    // A slowloris client: the request line and one header, then nothing more.
    socket.write(`POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  });

  it('wrote nothing of any refused request: no stored call holds a prototype key', async () => {
    // Ingest answers 200 only once Kafka has a call, so one accepted after every refusal bounds them.
    expect((await post('/v1/track', '{"userId":"after-the-refusals","event":"E"}')).status).toBe(200);
    await storedText('after-the-refusals');
    const hostile = reader.records.filter(
      (r) =>
        r.text.includes('__proto__') ||
        ['batch-level-hostile', 'nested-hostile'].includes(r.value.call.userId!),
    );
    expect(hostile.map((r) => r.text)).toEqual([]);
  });

  it('is still healthy afterwards', async () => {
    expect((await fetch(`${ingest.url}/health/ready`)).status).toBe(200);
  });
});

/** A small deterministic generator (mulberry32), so a failing body can be reproduced. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
