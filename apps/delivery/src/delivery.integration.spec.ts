import { verifySignature } from '@switchyard/webhooks';
import { DELIVERY_RECORD_HEADERS as DELIVERY_HEADERS } from '@switchyard/contracts';
import {
  job,
  selfSignedCertificate,
  startDeliveryWorld,
  TestCleanups,
  WebhookDestination,
} from '../test-support/delivery-harness';

const ADMIN_TOKEN = 'admin-token-for-tests-0001';

const cleanups = new TestCleanups();
const receiver = cleanups.receiver.bind(cleanups);
const world = (destinations: WebhookDestination[], env: Record<string, string> = {}) =>
  startDeliveryWorld(cleanups, 'delivery', destinations, { ADMIN_TOKEN, ...env });

describe('delivery service (real Kafka, real receivers)', () => {
  it('POSTs the job body with the configured headers and a signature the receiver recomputes over the raw body', async () => {
    const hook = await receiver(() => 200);
    const w = await world([
      {
        id: 'dest-a',
        sharedSecret: 'shh-secret',
        webhooks: [{ url: hook.url, headers: { 'X-Api-Key': 'key-123' } }],
      },
    ]);
    const sent = job('dest-a');
    await w.producer.send(sent);
    const [request] = await hook.waitForRequests(1);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/hook');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe('Switchyard/1.0');
    expect(request.headers['x-api-key']).toBe('key-123');
    expect(JSON.parse(request.rawBody.toString('utf8'))).toEqual(sent.body);
    expect(verifySignature('shh-secret', request.rawBody, request.headers['x-signature'] as string)).toBe(
      true,
    );
    // Segment documents that a receiver may also verify over its parsed-and-reserialised body.
    expect(
      verifySignature(
        'shh-secret',
        JSON.stringify(JSON.parse(request.rawBody.toString('utf8'))),
        request.headers['x-signature'] as string,
      ),
    ).toBe(true);
  });

  it('sends no X-Signature when the destination has no shared secret', async () => {
    const hook = await receiver(() => 200);
    const w = await world([{ id: 'dest-a', webhooks: [{ url: hook.url }] }]);
    await w.producer.send(job('dest-a'));
    const [request] = await hook.waitForRequests(1);
    expect(request.headers['x-signature']).toBeUndefined();
  });

  it('first URL 500 and second 200: delivered once, by the second, with no retry', async () => {
    const failing = await receiver(() => 500);
    const working = await receiver(() => 200);
    const w = await world([{ id: 'dest-a', webhooks: [{ url: failing.url }, { url: working.url }] }]);
    await w.producer.send(job('dest-a'));
    await working.waitForRequests(1);
    expect(failing.requests).toHaveLength(1);
    expect(working.requests).toHaveLength(1);
    expect(w.retries.records).toHaveLength(0);
    expect(w.dead.records).toHaveLength(0);
  });

  it('retries a 503 on every URL per the schedule, then dead-letters it when the window ends', async () => {
    const a = await receiver(() => 503);
    const b = await receiver(() => 503);
    // The circuit breaker would otherwise turn later attempts into fast failures without a request.
    const w = await world([{ id: 'dest-a', webhooks: [{ url: a.url }, { url: b.url }] }], {
      DELIVERY_BREAKER_FAILURE_THRESHOLD: '1000',
      DELIVERY_RETRY_WINDOW_MS: '5000',
    });
    const sent = job('dest-a');
    await w.producer.send(sent);
    const [dead] = await w.dead.waitFor(1);
    const attempts = Number(dead.headers[DELIVERY_HEADERS.attempt]);
    expect(dead.value.messageId).toBe(sent.messageId);
    expect(dead.headers[DELIVERY_HEADERS.failure]).toBe('window-spent');
    expect(dead.headers[DELIVERY_HEADERS.lastError]).toContain('HTTP 503');
    expect(attempts).toBeGreaterThanOrEqual(3);
    // No retry is scheduled past the 5 s window (when an attempt then starts is up to the machine;
    // the window is long enough that even a loaded machine gets through both tiers).
    const first = Date.parse(dead.headers[DELIVERY_HEADERS.firstAttemptAt]);
    for (const r of w.retries.records)
      expect(Date.parse(r.headers[DELIVERY_HEADERS.notBefore]) - first).toBeLessThanOrEqual(5000);
    // Every attempt tried both URLs, in order, from the first.
    expect(a.requests).toHaveLength(attempts);
    expect(b.requests).toHaveLength(attempts);
    // Each retry waited in its tier: the first in tier 1, the rest in tier 2 (the last delay repeats).
    const tiers = w.retries.records.map((r) => r.topic.match(/retry\.(\d+)\./)![1]);
    expect(tiers).toEqual(['1', ...Array(attempts - 2).fill('2')]);
    for (const r of w.retries.records) {
      expect(
        Date.parse(r.headers[DELIVERY_HEADERS.notBefore]) -
          Date.parse(r.headers[DELIVERY_HEADERS.lastAttemptAt]),
      ).toBeGreaterThanOrEqual(50);
    }
  });

  it('delivers a job answered 503 and then 200, after one retry', async () => {
    const hook = await receiver((i) => (i === 0 ? 503 : 200));
    const w = await world([{ id: 'dest-a', webhooks: [{ url: hook.url }] }]);
    const sent = job('dest-a');
    await w.producer.send(sent);
    const requests = await hook.waitForRequests(2);
    expect(requests.map((r) => JSON.parse(r.rawBody.toString()).messageId)).toEqual([
      sent.messageId,
      sent.messageId,
    ]);
    expect(w.retries.records).toHaveLength(1);
    expect(w.dead.records).toHaveLength(0);
  });

  it('treats a receiver slower than the timeout as a timeout error and retries', async () => {
    const hook = await receiver((i) => (i === 0 ? { status: 200, afterMs: 1500 } : 200));
    const w = await world([{ id: 'dest-a', webhooks: [{ url: hook.url }] }], {
      DELIVERY_REQUEST_TIMEOUT_MS: '300',
    });
    await w.producer.send(job('dest-a'));
    await hook.waitForRequests(2);
    const [retry] = await w.retries.waitFor(1);
    expect(retry.headers[DELIVERY_HEADERS.lastError]).toContain('timeout');
  });

  it('refuses an https receiver with a self-signed certificate: the receiver sees no request, the job is dead at once', async () => {
    const hook = await receiver(() => 200, selfSignedCertificate());
    const w = await world([{ id: 'dest-a', webhooks: [{ url: hook.url }] }]);
    await w.producer.send(job('dest-a'));
    const [dead] = await w.dead.waitFor(1);
    expect(dead.headers[DELIVERY_HEADERS.failure]).toBe('permanent');
    expect(dead.headers[DELIVERY_HEADERS.lastError]).toMatch(
      /TLS error \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)/,
    );
    expect(hook.requests).toHaveLength(0);
    expect(w.retries.records).toHaveLength(0);
  });

  it('dead-letters a 404 at once, then lists it and replays it (same messageId) once the receiver is fixed', async () => {
    let status = 404;
    const hook = await receiver(() => status);
    const w = await world([
      { id: 'dest-a', webhooks: [{ url: hook.url }] },
      { id: 'dest-b', webhooks: [{ url: hook.url }] },
    ]);
    const sent = job('dest-a');
    await w.producer.send(sent, job('dest-b', 2));
    const dead = await w.dead.waitFor(2);
    expect(
      dead.every(
        (d) =>
          d.headers[DELIVERY_HEADERS.attempt] === '1' && d.headers[DELIVERY_HEADERS.failure] === 'permanent',
      ),
    ).toBe(true);
    expect(w.retries.records).toHaveLength(0);

    const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    expect((await fetch(`${w.baseUrl}/dead-letters`)).status).toBe(401);
    const listed = (await (
      await fetch(`${w.baseUrl}/dead-letters?destinationId=dest-a`, { headers: auth })
    ).json()) as { total: number; deadLetters: Array<{ id: string }> };
    expect(listed.total).toBe(1);
    expect(listed.deadLetters[0]).toMatchObject({
      destinationId: 'dest-a',
      messageId: sent.messageId,
      failure: 'permanent',
      reason: expect.stringContaining('HTTP 404'),
      attempts: 1,
      replays: 0,
    });

    status = 200;
    const replay = await fetch(`${w.baseUrl}/dead-letters/replay`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ id: listed.deadLetters[0].id }),
    });
    expect(await replay.json()).toEqual({ replayed: 1, ids: [listed.deadLetters[0].id] });
    const requests = await hook.waitForRequests(3);
    expect(JSON.parse(requests[2].rawBody.toString()).messageId).toBe(sent.messageId);
  });
});
