import { Destination } from '@switchyard/config';
import { newJobHeaders } from '@switchyard/contracts';
import { Webhook } from 'standardwebhooks';
import { verifySignature } from '@switchyard/webhooks';
import { TIMEOUT_ERROR_CODE } from '../outcome/classify-outcome';
import { manualClock } from '../../test-support/manual-clock';
import { WebhookHttpClient, WebhookRequest, WebhookResponse } from '../http/webhook-http-client';
import { CircuitBreakers } from '../isolation/circuit-breaker';
import { decideNext, RetryPolicy } from './decide-next';
import { makeAttempt } from './make-attempt';
import { DispatchPlan, prepareDispatch } from './prepare-dispatch';
import { readDeliveryRecord } from './read-record';

const envelope = Buffer.from(JSON.stringify({ type: 'track', event: 'Zoë Signed Up' }));
const job = { jobId: 'm1:d1', destinationId: 'd1', sourceId: 's1', messageId: 'm1', body: envelope };
const idHeaders = newJobHeaders(job);
// Whole seconds of the real clock, so a verifier that checks the timestamp against it accepts it.
const NOW_MS = Math.floor(Date.now() / 1000) * 1000;
const destination = (overrides: Partial<Destination['settings']> = {}, enabled = true): Destination =>
  ({
    id: 'd1',
    type: 'Webhooks',
    enabled,
    sources: ['s1'],
    settings: {
      webhooks: [
        { url: 'https://a.example/hook?token=t', headers: { 'X-Api-Key': 'k' } },
        { url: 'https://b.example/hook' },
      ],
      ...overrides,
    },
  }) as Destination;

/** Answers each URL from a script: a status, or an error code to reject with. */
function scriptedClient(
  script: Record<string, Array<number | string | WebhookResponse>>,
): WebhookHttpClient & { sent: WebhookRequest[] } {
  const sent: WebhookRequest[] = [];
  return {
    sent,
    async post(request) {
      sent.push(request);
      const next = script[request.url]?.shift();
      if (typeof next === 'string') throw Object.assign(new Error(next), { code: next });
      if (typeof next === 'number') return { status: next };
      if (next) return next;
      throw new Error(`no answer scripted for ${request.url}`);
    },
    close: async () => undefined,
  };
}

describe('readDeliveryRecord', () => {
  it('reads a job from its id headers and envelope, and its history', () => {
    const read = readDeliveryRecord(envelope, { ...idHeaders, 'x-switchyard-attempt': Buffer.from('2') });
    expect(read).toEqual({ ok: true, job, state: expect.objectContaining({ attempt: 2 }) });
    expect(read.ok && read.job.body).toBe(envelope);
  });
  it.each([
    ['a value that is not an object', 'nope', idHeaders, 'the value must be the webhook envelope'],
    ['an array', '[1]', idHeaders, 'the value must be the webhook envelope'],
    ['no value', null, idHeaders, 'the value must be the webhook envelope'],
    [
      'no destination header',
      '{}',
      { ...idHeaders, 'x-switchyard-destination-id': '' },
      'header x-switchyard-destination-id (destinationId) is missing',
    ],
    ['no headers', '{}', undefined, 'header x-switchyard-message-id (messageId) is missing'],
  ])('refuses a record with %s', (_what, value, headers, reason) => {
    const read = readDeliveryRecord(value === null ? null : Buffer.from(value), headers);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.reason).toContain(reason);
  });
});

describe('prepareDispatch', () => {
  it('builds headers per URL in order, with a signature over the exact body bytes when a secret is set', () => {
    const prepared = prepareDispatch(job, destination({ sharedSecret: 's3cret' }), 'Switchyard', NOW_MS);
    if (prepared.kind !== 'ready') throw new Error('expected ready');
    const { body, targets } = prepared.plan;
    expect(body).toBe(envelope);
    expect(targets.map((t) => t.url)).toEqual(['https://a.example/hook?token=t', 'https://b.example/hook']);
    expect(targets[0].headers).toEqual({
      'X-Api-Key': 'k',
      'content-type': 'application/json',
      'user-agent': 'Switchyard/1.0',
      'x-signature': expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    expect(verifySignature('s3cret', body, targets[0].headers['x-signature'])).toBe(true);
  });

  it('signs Standard Webhooks requests with the messageId and the time of the attempt', () => {
    const secret = 'whsec_' + Buffer.alloc(32, 1).toString('base64');
    const prepared = prepareDispatch(
      job,
      destination({ signature: 'standard-webhooks', sharedSecret: secret }),
      'Switchyard',
      NOW_MS,
    );
    if (prepared.kind !== 'ready') throw new Error('expected ready');
    const { headers } = prepared.plan.targets[1];
    expect(headers).toEqual({
      'content-type': 'application/json',
      'user-agent': 'Switchyard/1.0',
      'webhook-id': 'm1',
      'webhook-timestamp': String(NOW_MS / 1000),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
    expect(new Webhook(secret).verify(envelope, headers)).toBeDefined();
  });

  it('sends no signature without a secret', () => {
    const prepared = prepareDispatch(job, destination(), 'Acme', NOW_MS);
    expect(prepared.kind === 'ready' && prepared.plan.targets[1].headers).toEqual({
      'content-type': 'application/json',
      'user-agent': 'Acme/1.0',
    });
  });

  it('cannot deliver to an unknown or disabled destination', () => {
    expect(prepareDispatch(job, undefined, 'S', NOW_MS)).toMatchObject({
      kind: 'undeliverable',
      failure: 'destination-deleted',
      reason: expect.stringContaining('not in the workspace'),
    });
    expect(prepareDispatch(job, destination({}, false), 'S', NOW_MS)).toMatchObject({
      kind: 'undeliverable',
      failure: 'destination-disabled',
      reason: expect.stringContaining('disabled'),
    });
  });
});

describe('makeAttempt', () => {
  const plan: DispatchPlan = {
    destinationId: 'd1',
    body: Buffer.from('{}'),
    targets: [
      { url: 'https://a.example/hook?token=t', headers: {} },
      { url: 'https://b.example/hook', headers: {} },
    ],
  };
  const deps = (client: WebhookHttpClient, clock = manualClock()) => ({
    client,
    clock,
    breakers: new CircuitBreakers(2, 1000, clock),
    timeoutMs: 5000,
  });

  it('stops at the first 2xx: the later URLs are not tried', async () => {
    const client = scriptedClient({ 'https://a.example/hook?token=t': [200] });
    expect(await makeAttempt(plan, deps(client))).toMatchObject({ verdict: 'delivered', status: 200 });
    expect(client.sent).toHaveLength(1);
  });

  it('moves on to the next URL when one fails', async () => {
    const client = scriptedClient({
      'https://a.example/hook?token=t': [{ status: 500, body: Buffer.from('down') }],
      'https://b.example/hook': [204],
    });
    expect(await makeAttempt(plan, deps(client))).toMatchObject({
      verdict: 'delivered',
      url: 'https://b.example/hook',
      request: { urlIndex: 1, status: 204 },
      failures: [{ urlIndex: 0, status: 500, responseBody: Buffer.from('down'), reason: 'HTTP 500' }],
    });
  });

  it('retries when any URL failed retryably, dropping query strings from the reason', async () => {
    const client = scriptedClient({
      'https://a.example/hook?token=t': [404],
      'https://b.example/hook': [TIMEOUT_ERROR_CODE],
    });
    const result = await makeAttempt(plan, deps(client));
    expect(result).toMatchObject({ verdict: 'retry' });
    expect(result.verdict === 'retry' && result.reason).toBe(
      'https://a.example/hook: HTTP 404; https://b.example/hook: timeout: ERR_WEBHOOK_TIMEOUT',
    );
    expect(result.failures[1].errorKind).toBe('timeout');
  });

  it('gives up only when every URL failed permanently', async () => {
    const client = scriptedClient({
      'https://a.example/hook?token=t': [410],
      'https://b.example/hook': ['DEPTH_ZERO_SELF_SIGNED_CERT'],
    });
    expect(await makeAttempt(plan, deps(client))).toMatchObject({
      verdict: 'permanent',
      reason: expect.stringContaining('TLS error'),
    });
  });

  it('takes the longest Retry-After among the URLs', async () => {
    const client = scriptedClient({
      'https://a.example/hook?token=t': [{ status: 429, retryAfter: '30' }],
      'https://b.example/hook': [{ status: 503, retryAfter: '90' }],
    });
    expect(await makeAttempt(plan, deps(client))).toMatchObject({ verdict: 'retry', retryAfterMs: 90_000 });
  });

  it('fails fast on a URL whose circuit is open, without a request', async () => {
    const client = scriptedClient({
      'https://a.example/hook?token=t': [503, 503],
      'https://b.example/hook': [503, 503, 200],
    });
    const d = deps(client);
    await makeAttempt(plan, d);
    await makeAttempt(plan, d);
    client.sent.length = 0;
    const third = await makeAttempt(plan, d);
    expect(third).toMatchObject({ verdict: 'retry', reason: expect.stringContaining('circuit open') });
    expect(client.sent).toHaveLength(0);
  });
});

describe('decideNext', () => {
  const policy: RetryPolicy = {
    schedule: { delaysMs: [50, 100], tiersMs: [50, 100], jitterRatio: 0, retryAfterMaxMs: 1000 },
    windowMs: 1000,
  };
  const retry = { verdict: 'retry' as const, reason: 'HTTP 503', failures: [] };
  const random = () => 0;

  it('records the first attempt and schedules tier 1', () => {
    expect(decideNext({ attempt: 0, replays: 0 }, retry, 10_000, policy, random)).toEqual({
      kind: 'retry',
      tier: 1,
      state: {
        attempt: 1,
        replays: 0,
        firstAttemptAt: 10_000,
        lastAttemptAt: 10_000,
        notBefore: 10_050,
        lastError: 'HTTP 503',
      },
    });
  });

  it('repeats the last tier', () => {
    expect(
      decideNext({ attempt: 4, firstAttemptAt: 10_000, replays: 0 }, retry, 10_500, policy, random),
    ).toMatchObject({ kind: 'retry', tier: 2, state: { notBefore: 10_600 } });
  });

  it('dead-letters when the next retry would start after the window', () => {
    const step = decideNext(
      { attempt: 9, firstAttemptAt: 10_000, replays: 0 },
      retry,
      10_950,
      policy,
      random,
    );
    expect(step).toMatchObject({
      kind: 'dead',
      failure: 'window-spent',
      state: { attempt: 10, lastError: expect.stringContaining('last error: HTTP 503') },
    });
  });

  it('dead-letters a permanent failure at once', () => {
    const step = decideNext(
      { attempt: 0, replays: 2 },
      { verdict: 'permanent', reason: 'HTTP 404', failures: [] },
      5,
      policy,
      random,
    );
    expect(step).toEqual({
      kind: 'dead',
      failure: 'permanent',
      state: {
        attempt: 1,
        replays: 2,
        firstAttemptAt: 5,
        lastAttemptAt: 5,
        notBefore: undefined,
        lastError: 'HTTP 404',
      },
    });
  });

  it('is done once delivered', () => {
    expect(
      decideNext(
        { attempt: 2, firstAttemptAt: 1, replays: 0 },
        {
          verdict: 'delivered',
          url: 'u',
          status: 200,
          request: { urlIndex: 0, startedAt: 0, durationMs: 1, status: 200 },
          failures: [],
        },
        5,
        policy,
        random,
      ).kind,
    ).toBe('delivered');
  });
});
