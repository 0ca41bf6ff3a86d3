import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { KafkaProducer } from '@switchyard/kafka';
import {
  DeliveryAttempt,
  encodeDeliveryAttempts,
  encodeDeliveryHeaders,
  topicNames,
} from '@switchyard/contracts';
import { listeningPort } from '@switchyard/service';
import { createLogger } from '@switchyard/telemetry';
import { eventually, freshNamespace, testKafka } from '../../../../test/support/kafka-test-kit';
import { testServiceEnv } from '../../../../test/support/service-env';
import { WorkspaceFile } from '../../../../test/support/workspace-file';
import { consoleSettingsFromEnv } from '../console-settings';
import { startConsole } from '../console.app';

const TOKEN = 'console-test-admin-token';
const LIMIT = 5;

const attempt = (n: number): DeliveryAttempt => ({
  destinationId: 'd1',
  messageId: `m${n}`,
  sourceId: 's1',
  userId: `u${n % 2}`,
  type: 'track',
  event: `E${n}`,
  urlIndex: 0,
  urlHost: '127.0.0.1:1',
  status: n === 8 ? 500 : 200,
  durationMs: n,
  attempt: 1,
  at: Date.UTC(2026, 0, 1, 0, 0, n),
  outcome: n === 8 ? 'dead-lettered' : 'delivered',
});

/**
 * The console API against a real broker: attempt records produced to the attempts topic, read
 * into the bounded index, asked for over HTTP with the bearer token or a login cookie.
 */
describe('console API', () => {
  const namespace = freshNamespace('console');
  const topics = topicNames(namespace);
  const workspace = new WorkspaceFile({
    sources: [{ id: 's1', name: 'Web', writeKey: 'console-write-key-1' }],
    destinations: [
      {
        id: 'd1',
        type: 'Webhooks',
        enabled: true,
        sources: ['s1'],
        settings: { webhooks: [{ url: 'http://127.0.0.1:1/hook' }] },
      },
    ],
  });
  const env = {
    ...testServiceEnv(namespace, workspace.path),
    ADMIN_TOKEN: TOKEN,
    CONSOLE_MAX_ATTEMPTS: String(LIMIT),
    CONSOLE_CALLS_PER_SOURCE: '2',
  };
  let app: NestFastifyApplication;
  let base: string;
  let producer: KafkaProducer;

  const start = async () => {
    app = await startConsole(consoleSettingsFromEnv(env), createLogger('console', 'warn'));
    base = `http://127.0.0.1:${listeningPort(app)}`;
    await eventually(async () => (await fetch(`${base}/health/ready`)).ok, 30_000, 'console ready');
  };
  const get = (path: string, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
    fetch(`${base}${path}`, { headers });
  const json = async (path: string) => (await get(path)).json() as Promise<Record<string, never>>;

  beforeAll(async () => {
    await start();
    producer = testKafka().producer();
    await producer.connect();
    // One partition, so "oldest" is the order written here: two records of attempts, then one that holds none.
    const record = (ns: number[]) => ({
      key: null,
      value: encodeDeliveryAttempts(ns.map(attempt)),
      partition: 0,
    });
    await producer.send({
      topic: topics.deliveryAttempts,
      messages: [
        record([1, 2, 3]),
        record([4, 5, 6, 7, 8]),
        { key: null, value: 'not attempts', partition: 0 },
      ],
    });
    // m8's dead letter as delivery writes it, and one without ids (unreadable): both are listed.
    const deadAt = Date.UTC(2026, 0, 1, 0, 0, 9);
    const dead = encodeDeliveryHeaders({
      ids: { destinationId: 'd1', sourceId: 's1', messageId: 'm8' },
      trace: {},
      state: { attempt: 1, replays: 0, lastError: 'HTTP 500' },
      dead: { failure: 'permanent', deadAt },
    });
    await producer.send({
      topic: topics.deliveriesDead,
      messages: [
        { key: null, value: '{}', headers: dead, partition: 0 },
        { key: null, value: 'junk', partition: 0 },
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await producer?.disconnect();
    await app?.close();
    workspace.remove();
  });

  it('answers 401 without the token or a session, and with a wrong one', async () => {
    expect((await get('/api/destinations', {})).status).toBe(401);
    expect((await get('/api/destinations', { authorization: 'Bearer not-the-admin-token' })).status).toBe(
      401,
    );
    expect((await get('/api/destinations', { cookie: 'switchyard_console=1.forged' })).status).toBe(401);
  });

  it('answers the same under /api/v1 as under the older /api aliases', async () => {
    const pairs = [
      ['/api/v1/health/destinations', '/api/destinations'],
      ['/api/v1/destinations/d1/attempts?limit=5', '/api/destinations/d1/attempts?limit=5'],
      ['/api/v1/messages?messageId=m8', '/api/messages?messageId=m8'],
      ['/api/v1/dead-letters?limit=5', '/api/dead-letters?limit=5'],
      ['/api/v1/sources/s1/calls', '/api/sources/s1/calls'],
    ];
    for (const [current, alias] of pairs) {
      const [a, b] = await Promise.all([get(current), get(alias)]);
      expect([current, a.status]).toEqual([current, b.status]);
      expect(await a.json()).toEqual(await b.json());
    }
    expect((await get('/api/v1/index')).status).toBe(200);
  });

  it('holds at most CONSOLE_MAX_ATTEMPTS: the oldest are evicted from every lookup and counted', async () => {
    const index = await eventually(
      async () => {
        const body = await json('/api/index');
        return body.attempts?.['evicted'] === 3 && body.deadLetters?.['held'] === 2 && body;
      },
      20_000,
      'three evictions and two dead letters',
    );
    expect(index).toEqual({
      attempts: { held: LIMIT, limit: LIMIT, evicted: 3 },
      deadLetters: { held: 2, limit: 10_000, evicted: 0 },
      calls: { held: 0, perSource: 2, evicted: 0 },
    });
    expect((await json('/api/messages?messageId=m3')).messages).toEqual([]);
    expect((await json('/api/messages?messageId=m4')).messages).toEqual([
      expect.objectContaining({
        messageId: 'm4',
        event: 'E4',
        attempts: [expect.objectContaining({ status: 200 })],
      }),
    ]);
    expect(
      ((await json('/api/messages?userId=u0')).messages as Array<{ messageId: string }>).map(
        (m) => m.messageId,
      ),
    ).toEqual(['m8', 'm6', 'm4']);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('switchyard_console_index_evicted_total{kind="attempts"} 3');
    expect(metrics).toMatch(/switchyard_console_records_skipped_total\{topic="[^"]+attempts[^"]*"\} 1/);
  });

  it('shows destination health, filtered attempts and dead letters', async () => {
    const { destinations } = await json('/api/destinations');
    expect(destinations).toEqual([
      expect.objectContaining({
        id: 'd1',
        enabled: true,
        health: expect.objectContaining({ requests: 5, successRate: 0.8, p50Ms: 6 }),
      }),
    ]);
    const { attempts } = await json(
      '/api/destinations/d1/attempts?status=200&from=2026-01-01T00:00:05Z&to=2026-01-01T00:00:07Z',
    );
    expect((attempts as DeliveryAttempt[]).map((a) => a.messageId)).toEqual(['m6', 'm5']);
    const { deadLetters } = await json('/api/dead-letters');
    expect(deadLetters).toEqual([
      { deadLetter: { id: '0:1', failure: 'unknown', reason: 'unknown', attempts: 0, replays: 0 } },
      {
        deadLetter: expect.objectContaining({
          id: '0:0',
          destinationId: 'd1',
          messageId: 'm8',
          failure: 'permanent',
          reason: 'HTTP 500',
        }),
        deadAttempt: expect.objectContaining({ messageId: 'm8', status: 500, outcome: 'dead-lettered' }),
        latest: expect.objectContaining({ messageId: 'm8', status: 500 }),
      },
    ]);
    expect(((await json('/api/dead-letters?destinationId=d1')).deadLetters as unknown[]).length).toBe(1);
  });

  it('refuses bad input with a 4xx that names the problem', async () => {
    const cases: Array<[string, number, string]> = [
      ['/api/messages', 400, 'give either messageId or userId'],
      ['/api/destinations/d1/attempts?outcome=lost', 400, 'outcome must be one of'],
      ['/api/destinations/d1/attempts?from=yesterday', 400, 'from must be an ISO 8601'],
      ['/api/destinations/d1/attempts?limit=0', 400, 'limit must be an integer'],
      ['/api/destinations/nope/attempts', 404, 'no destination nope'],
      ['/api/sources/nope/calls', 404, 'no source nope'],
      ['/api/dead-letters?limit=5000', 400, 'limit must be an integer'],
    ];
    for (const [path, status, message] of cases) {
      const response = await get(path);
      expect([path, response.status, ((await response.json()) as { message: string }).message]).toEqual([
        path,
        status,
        expect.stringContaining(message),
      ]);
    }
    const replay = await fetch(`${base}/api/replay`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(replay.status).toBe(400);
  });

  it('logs in with the token posted once and then takes the session cookie', async () => {
    const wrong = await fetch(`${base}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=wrong',
    });
    expect(wrong.status).toBe(401);
    const login = await fetch(`${base}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: TOKEN }).toString(),
    });
    expect(login.status).toBe(303);
    const setCookie = login.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly; SameSite=Strict/);
    expect(setCookie).not.toContain(TOKEN);
    expect((await get('/api/index', { cookie: setCookie.split(';')[0] })).status).toBe(200);
    expect((await get('/destinations', { cookie: setCookie.split(';')[0] })).status).toBe(200);
    const page = await fetch(`${base}/destinations`, { redirect: 'manual' });
    expect([page.status, page.headers.get('location')]).toEqual([303, '/login']);
    // The live debugger's script asks for its rows: without a session, a 401 it can tell apart, not the login page.
    const session = { cookie: setCookie.split(';')[0] };
    expect((await get('/sources/s1/debugger/rows', session)).status).toBe(200);
    expect((await fetch(`${base}/sources/s1/debugger/rows`, { redirect: 'manual' })).status).toBe(401);
    const script = await fetch(`${base}/assets/live-debugger.js`);
    expect([script.status, script.headers.get('content-type')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
    ]);
  });

  /** An events-topic record as ingest writes it. */
  const call = (n: number, sourceId = 's1') => ({
    key: `${sourceId}:u`,
    value: JSON.stringify({ sourceId, call: { type: 'track', event: `Call ${n}`, messageId: `c${n}` } }),
  });
  const latestCallIds = async () =>
    ((await json('/api/sources/s1/calls')).calls as Array<{ call: { messageId: string } }>).map(
      (c) => c.call.messageId,
    );

  it('keeps the last calls of each source for the live debugger, evicting and counting the oldest', async () => {
    await producer.send({ topic: topics.events, messages: [call(1), call(2), call(3), call(4, 'unknown')] });
    const { calls } = await eventually(
      async () => {
        const body = await json('/api/sources/s1/calls');
        return (
          (body.calls as unknown[]).length === 2 &&
          (body.calls as Array<{ call: { messageId: string } }>)[0].call.messageId === 'c3' &&
          body
        );
      },
      20_000,
      'the last two calls',
    );
    expect((calls as Array<{ call: { event: string } }>).map((c) => c.call.event)).toEqual([
      'Call 3',
      'Call 2',
    ]);
    expect((await json('/api/index')).calls).toEqual({ held: 2, perSource: 2, evicted: 1 });
  });

  it('rebuilds the same index from the attempts topic when it starts again; the debugger shows calls from that start on', async () => {
    await app.close();
    await start();
    expect((await json('/api/index')).attempts).toEqual({ held: LIMIT, limit: LIMIT, evicted: 3 });
    expect((await json('/api/index')).deadLetters).toEqual({ held: 2, limit: 10_000, evicted: 0 });
    expect((await json('/api/messages?messageId=m8')).messages).toHaveLength(1);
    // Sent the moment it is ready: the events group starts where the topic ended at start, not at its first fetch.
    await producer.send({ topic: topics.events, messages: [call(5)] });
    await eventually(
      async () => (await latestCallIds()).length > 0,
      20_000,
      'the call sent after the restart',
    );
    expect(await latestCallIds()).toEqual(['c5']);
  });
});
