import { setImmediate as nextTurn } from 'node:timers/promises';
import { BatchReceiver } from '../test-support/batch-receiver';
import { Analytics } from './analytics';
import {
  ClientClosedError,
  DeliveryError,
  FlushError,
  MessageTooLargeError,
  QueueFullError,
  ValidationError,
} from './errors';
import type { AnalyticsOptions } from './settings';
import { LIBRARY_NAME } from './version';

const WRITE_KEY = 'wk-test';
/** Long enough that only the size trigger or an explicit flush sends anything within a test. */
const NEVER = 600_000;
const FAST_RETRY = { initialDelayMs: 5, maxDelayMs: 20 };

describe('Analytics client', () => {
  let receiver: BatchReceiver;
  const clients: Analytics[] = [];
  const client = (options: AnalyticsOptions = {}) => {
    const created = new Analytics(WRITE_KEY, {
      endpoint: receiver.url,
      flushAfter: NEVER,
      retry: FAST_RETRY,
      ...options,
    });
    clients.push(created);
    return created;
  };

  beforeEach(async () => {
    receiver = await BatchReceiver.start();
  });
  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    await receiver.stop();
  });

  it('sends nothing while fewer than 20 calls are queued, then the 20 in one batch to /v1/batch with Basic auth', async () => {
    const analytics = client();
    for (let i = 0; i < 19; i += 1) analytics.track({ userId: 'u1', event: `E${i}` });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.requests).toHaveLength(0);

    analytics.track({ userId: 'u1', event: 'E19' });
    await receiver.waitForMessages(20);
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/batch' });
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}`);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body.batch.map((m) => m.event)).toEqual(Array.from({ length: 20 }, (_, i) => `E${i}`));
  });

  it('sends a partial batch flushAfter ms after the first queued call', async () => {
    const analytics = client({ flushAfter: 50 });
    const started = Date.now();
    analytics.identify({ userId: 'u1' });
    analytics.identify({ userId: 'u2' });
    await receiver.waitForMessages(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(receiver.requests).toHaveLength(1);
  });

  it('with size 1 sends every call in its own request at once', async () => {
    const analytics = client({ size: 1 });
    analytics.track({ userId: 'u1', event: 'A' });
    analytics.track({ userId: 'u1', event: 'B' });
    analytics.track({ userId: 'u1', event: 'C' });
    await receiver.waitForMessages(3);
    expect(receiver.requests.map((r) => r.body.batch.length)).toEqual([1, 1, 1]);
  });

  it('sends each call type in the Tracking API shape, returning the messageId', async () => {
    const analytics = client();
    const integrations = { All: false, Webhooks: true };
    const ids = [
      analytics.identify({ userId: 'u1', traits: { name: 'Ada' }, context: { ip: '10.0.0.1' } }),
      analytics.track({
        anonymousId: 'a1',
        event: 'Order Completed',
        properties: { revenue: 42.5 },
        integrations,
      }),
      analytics.page({
        userId: 'u1',
        name: 'Home',
        category: 'Docs',
        properties: { url: 'https://example.com/' },
      }),
      analytics.screen({ userId: 'u1', name: 'Dashboard' }),
      analytics.group({ userId: 'u1', groupId: 'g-1', traits: { name: 'Acme' } }),
      analytics.alias({
        userId: 'u1',
        previousId: 'a1',
        timestamp: new Date('2015-01-02T10:04:05Z'),
        messageId: 'my-id',
      }),
    ];
    await analytics.flush();

    const [request] = receiver.requests;
    expect(request.body.sentAt).toMatch(/Z$/);
    const messages = request.body.batch;
    expect(messages.map((m) => m.messageId)).toEqual(ids);
    expect(ids[5]).toBe('my-id');
    expect(messages[0]).toMatchObject({
      type: 'identify',
      userId: 'u1',
      traits: { name: 'Ada' },
      context: { ip: '10.0.0.1', library: { name: LIBRARY_NAME } },
    });
    expect(messages[1]).toMatchObject({
      type: 'track',
      anonymousId: 'a1',
      event: 'Order Completed',
      properties: { revenue: 42.5 },
      integrations,
    });
    expect(messages[2]).toMatchObject({
      type: 'page',
      name: 'Home',
      category: 'Docs',
      properties: { url: 'https://example.com/' },
    });
    expect(messages[3]).toMatchObject({ type: 'screen', name: 'Dashboard' });
    expect(messages[4]).toMatchObject({ type: 'group', groupId: 'g-1', traits: { name: 'Acme' } });
    expect(messages[5]).toMatchObject({
      type: 'alias',
      userId: 'u1',
      previousId: 'a1',
      timestamp: '2015-01-02T10:04:05.000Z',
    });
    // Without a timestamp, ingest stamps the call at receipt; the call time travels as originalTimestamp.
    expect(messages[0]).not.toHaveProperty('timestamp');
    expect(messages[0].originalTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it.each([
    ['identify without userId or anonymousId', () => client().identify({ traits: {} } as never), 'userId'],
    ['track without event', () => client().track({ userId: 'u1' } as never), 'event'],
    ['track with an empty event', () => client().track({ userId: 'u1', event: '' }), 'event'],
    ['group without groupId', () => client().group({ userId: 'u1' } as never), 'groupId'],
    ['alias without previousId', () => client().alias({ userId: 'u1' } as never), 'previousId'],
    [
      'page with properties as an array',
      () => client().page({ userId: 'u1', properties: [] as never }),
      'properties',
    ],
    [
      'a timestamp that is not a date',
      () => client().track({ userId: 'u1', event: 'E', timestamp: 'yesterday' }),
      'timestamp',
    ],
  ])('refuses %s with a ValidationError naming the field, queuing nothing', (_, call, field) => {
    let thrown: unknown;
    try {
      call();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).errors).toEqual([expect.objectContaining({ field })]);
    expect(clients.every((c) => c.queueLength === 0)).toBe(true);
  });

  it('refuses a call over 32 KB with MessageTooLargeError and never sends it', async () => {
    const analytics = client();
    expect(() =>
      analytics.track({ userId: 'u1', event: 'Big', properties: { blob: 'x'.repeat(33 * 1024) } }),
    ).toThrow(MessageTooLargeError);
    analytics.track({ userId: 'u1', event: 'Just under', properties: { blob: 'x'.repeat(31 * 1024) } });
    await analytics.flush();
    expect(receiver.messages.map((m) => m.event)).toEqual(['Just under']);
  });

  it('splits a flush so that no request body exceeds 500 KB', async () => {
    const analytics = client();
    for (let i = 0; i < 20; i += 1)
      analytics.track({ userId: 'u1', event: `E${i}`, properties: { blob: 'x'.repeat(30 * 1024) } });
    await analytics.flush();
    expect(receiver.messages).toHaveLength(20);
    expect(receiver.requests.length).toBeGreaterThan(1);
    for (const request of receiver.requests) expect(request.bytes).toBeLessThanOrEqual(500 * 1024);
  });

  it('retries a 503 and delivers the batch once it is answered 200', async () => {
    receiver.respondWith({ status: 503 }, { status: 503 });
    const analytics = client();
    const messageId = analytics.track({ userId: 'u1', event: 'E' });
    await analytics.flush();
    expect(receiver.requests.map((r) => r.body.batch[0].messageId)).toEqual([
      messageId,
      messageId,
      messageId,
    ]);
  });

  it('waits as long as a 429 Retry-After says, within maxRetryAfterMs', async () => {
    receiver.respondWith({ status: 429, headers: { 'retry-after': '1' } });
    const analytics = client({ retry: { ...FAST_RETRY, maxRetryAfterMs: 80 } });
    analytics.track({ userId: 'u1', event: 'E' });
    const started = Date.now();
    await analytics.flush();
    expect(Date.now() - started).toBeGreaterThanOrEqual(75);
    expect(receiver.requests).toHaveLength(2);
  });

  it('does not retry a 400: the flush rejects and an error event names the messages', async () => {
    receiver.respondWith({ status: 400, body: '{"success":false,"error":"invalid_messages"}' });
    const analytics = client();
    const reported: DeliveryError[] = [];
    analytics.on('error', (e) => reported.push(e));
    const messageId = analytics.track({ userId: 'u1', event: 'E' });

    const failure = await analytics.flush().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(FlushError);
    expect(reported).toEqual([(failure as FlushError).failures[0]]);
    expect(reported[0]).toMatchObject({ status: 400, attempts: 1, messageIds: [messageId] });
    expect(reported[0].message).toContain('invalid_messages');
    expect(receiver.requests).toHaveLength(1);
  });

  it('gives up on network errors after maxAttempts and says so on stderr when nobody listens', async () => {
    const closed = await BatchReceiver.start();
    const unreachable = closed.url;
    await closed.stop();
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const analytics = client({ endpoint: unreachable, retry: { ...FAST_RETRY, maxAttempts: 3 } });
      analytics.track({ userId: 'u1', event: 'E' });
      const failure = (await analytics.flush().catch((e: unknown) => e)) as FlushError;
      expect(failure.failures[0]).toMatchObject({ attempts: 3, status: undefined });
      expect(failure.failures[0].message).toMatch(/still failing after 3 attempt\(s\), last network error/);
      expect(stderr).toHaveBeenCalledWith(expect.stringContaining('not delivered'));
    } finally {
      stderr.mockRestore();
    }
  });

  it('delivers every call of 50 concurrent callers exactly once', async () => {
    const analytics = client({ maxQueueSize: 10_000 });
    const sent = new Set<string>();
    const caller = async (n: number) => {
      for (let i = 0; i < 200; i += 1) {
        sent.add(analytics.track({ userId: `user-${n}`, event: 'Tick', properties: { i } }));
        await nextTurn();
      }
    };
    await Promise.all(Array.from({ length: 50 }, (_, n) => caller(n)));
    await analytics.flush();

    const received = receiver.messages.map((m) => m.messageId as string);
    expect(sent.size).toBe(10_000);
    expect(received).toHaveLength(10_000);
    expect(new Set(received)).toEqual(sent);
    expect(Math.max(...receiver.requests.map((r) => r.body.batch.length))).toBe(20);
  });

  it('close() drains the queue, then refuses further calls', async () => {
    const analytics = client();
    for (let i = 0; i < 5; i += 1) analytics.page({ userId: 'u1', name: `P${i}` });
    await analytics.close();
    expect(receiver.messages).toHaveLength(5);
    expect(() => analytics.page({ userId: 'u1' })).toThrow(ClientClosedError);
    await expect(analytics.close()).resolves.toBeUndefined();
  });

  it('refuses calls with QueueFullError while maxQueueSize messages are unsettled, and accepts again after', async () => {
    const analytics = client({ flushAt: 5, maxQueueSize: 5 });
    for (let i = 0; i < 5; i += 1) analytics.track({ userId: 'u1', event: `E${i}` });
    expect(() => analytics.track({ userId: 'u1', event: 'overflow' })).toThrow(QueueFullError);

    await analytics.flush();
    analytics.track({ userId: 'u1', event: 'after' });
    await analytics.flush();
    expect(receiver.messages.map((m) => m.event)).toEqual(['E0', 'E1', 'E2', 'E3', 'E4', 'after']);
  });

  describe('DEBUG=analytics', () => {
    const saved = process.env.DEBUG;
    let lines: string[];
    let stderr: jest.SpyInstance;
    beforeEach(() => {
      lines = [];
      stderr = jest
        .spyOn(process.stderr, 'write')
        .mockImplementation((chunk) => lines.push(String(chunk)) > 0);
    });
    afterEach(() => {
      stderr.mockRestore();
      process.env.DEBUG = saved;
    });

    it('logs calls and requests to stderr', async () => {
      process.env.DEBUG = 'analytics';
      const analytics = client();
      const messageId = analytics.track({ userId: 'u1', event: 'E' });
      await analytics.close();
      expect(lines).toEqual(
        expect.arrayContaining([
          expect.stringMatching(new RegExp(`^analytics \\S+ queued track ${messageId}`)),
          expect.stringMatching(/^analytics \S+ batch of 1 \(\d+ bytes\) attempt 1\/5: HTTP 200/),
          expect.stringMatching(/^analytics \S+ closing with 1 message\(s\) unsettled/),
        ]),
      );
    });

    it('logs nothing when DEBUG names something else', async () => {
      process.env.DEBUG = 'express';
      const analytics = client();
      analytics.track({ userId: 'u1', event: 'E' });
      await analytics.flush();
      expect(lines).toEqual([]);
    });
  });
});
