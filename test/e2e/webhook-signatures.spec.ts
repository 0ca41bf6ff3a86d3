import { createHmac, randomBytes } from 'node:crypto';
import { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { verifyWebhook } from '@switchyard/analytics';
import { freshNamespace, testBrokers } from '../support/kafka-test-kit';
import { PipelineProcesses } from '../support/pipeline-processes';
import { ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver';
import { WorkspaceFile } from '../support/workspace-file';

const NEW_SECRET = 'whsec_' + randomBytes(32).toString('base64');
const OLD_SECRET = 'whsec_' + randomBytes(32).toString('base64');
const HOUR_MS = 3_600_000;
/** Source id (also its destination's id and receiver path) → its write key. */
const SOURCES = {
  standard: 'sig-standard-key-0001',
  rotating: 'sig-rotating-key-0001',
  rotated: 'sig-rotated-key-0001',
} as const;
type SourceId = keyof typeof SOURCES;
const CALLS_PER_SOURCE = 8;

/** Verifiers nobody on this project wrote: each throws unless a signature matches under `secret`. */
const FOREIGN_VERIFIERS = {
  standardwebhooks: (secret: string, hook: ReceivedWebhook) =>
    new Webhook(secret).verify(hook.raw.toString('utf8'), plainHeaders(hook.headers)),
  svix: (secret: string, hook: ReceivedWebhook) =>
    new SvixWebhook(secret).verify(hook.raw.toString('utf8'), plainHeaders(hook.headers)),
};

function plainHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])),
  );
}

const hmacSha1 = (secret: string, raw: Buffer) => createHmac('sha1', secret).update(raw).digest('hex');

/**
 * Standard Webhooks signing and secret rotation through the real pipeline (ingest → Kafka →
 * router → Kafka → delivery, each its own process) to a real receiver, every request checked
 * with the standardwebhooks and svix packages.
 */
describe('webhook signatures, verified by Standard Webhooks libraries', () => {
  let receiver: WebhookReceiver;
  let processes: PipelineProcesses | undefined;
  let workspace: WorkspaceFile;
  const received: Partial<Record<SourceId, ReceivedWebhook[]>> = {};
  /** messageIds whose first request was answered 503. */
  const failedOnce = new Set<unknown>();

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    // The first attempt of every odd-numbered call fails, so retried requests are checked too.
    receiver.respond = (hook) => {
      const n = (hook.body.properties as { n?: number } | undefined)?.n ?? 0;
      if (n % 2 === 0 || failedOnce.has(hook.body.messageId)) return 200;
      failedOnce.add(hook.body.messageId);
      return 503;
    };
    const destination = (id: SourceId, settings: Record<string, unknown>) => ({
      id,
      type: 'Webhooks',
      enabled: true,
      sources: [id],
      settings: {
        signature: 'both',
        sharedSecret: NEW_SECRET,
        ...settings,
        webhooks: [{ url: receiver.url(`/${id}`) }],
      },
    });
    workspace = new WorkspaceFile({
      sources: Object.entries(SOURCES).map(([id, writeKey]) => ({ id, name: id, writeKey })),
      destinations: [
        destination('standard', { signature: 'standard-webhooks' }),
        destination('rotating', {
          previousSecret: OLD_SECRET,
          previousSecretExpiresAt: new Date(Date.now() + HOUR_MS).toISOString(),
        }),
        destination('rotated', {
          previousSecret: OLD_SECRET,
          previousSecretExpiresAt: new Date(Date.now() - HOUR_MS).toISOString(),
        }),
      ],
    });
    processes = await PipelineProcesses.start({
      KAFKA_BROKERS: testBrokers(),
      TOPIC_NAMESPACE: freshNamespace('signatures'),
      TOPIC_PARTITIONS: '2',
      WORKSPACE_CONFIG: workspace.path,
      DELIVERY_RETRY_SCHEDULE_MS: '100,200',
      // Everything the services log, so the last test can look for secrets in it.
      LOG_LEVEL: 'debug',
    });
    for (const writeKey of Object.values(SOURCES)) {
      const batch = Array.from({ length: CALLS_PER_SOURCE }, (_, n) => ({
        type: 'track',
        userId: `user-${n}`,
        event: 'Order Completed',
        properties: { n, tiny: 1e-7, name: 'Zoë' },
      }));
      const response = await fetch(`${processes.ingest.url}/v1/batch`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ batch }),
      });
      expect(response.status).toBe(200);
    }
    for (const source of Object.keys(SOURCES) as SourceId[])
      received[source] = await receiver.waitFor(CALLS_PER_SOURCE, (h) => h.path === `/${source}`);
  }, 180_000);

  afterAll(async () => {
    await processes?.stop();
    processes = undefined;
    await receiver?.stop();
    workspace?.remove();
  });

  it('signs every request, retries included, so both libraries accept it under the secret', () => {
    const hooks = received.standard!;
    expect(new Set(hooks.map((h) => h.body.messageId)).size).toBe(CALLS_PER_SOURCE);
    expect(hooks.filter((h) => failedOnce.has(h.body.messageId))).toHaveLength(CALLS_PER_SOURCE / 2);
    for (const hook of hooks) {
      expect(hook.headers['webhook-id']).toBe(hook.body.messageId);
      expect(hook.headers['x-signature']).toBeUndefined();
      for (const verify of Object.values(FOREIGN_VERIFIERS)) {
        expect(verify(NEW_SECRET, hook)).toMatchObject({ messageId: hook.body.messageId });
        expect(() => verify(OLD_SECRET, hook)).toThrow('No matching signature found');
      }
      expect(verifyWebhook(hook.raw, hook.headers, NEW_SECRET)).toEqual({ valid: true });
    }
  });

  it('during a rotation, signs so that the old secret alone and the new secret alone verify', () => {
    for (const hook of received.rotating!) {
      for (const secret of [OLD_SECRET, NEW_SECRET]) {
        for (const verify of Object.values(FOREIGN_VERIFIERS))
          expect(() => verify(secret, hook)).not.toThrow();
        expect(verifyWebhook(hook.raw, hook.headers, secret)).toEqual({ valid: true });
        expect(verifyWebhook(hook.raw, hook.headers, secret, { scheme: 'segment' })).toEqual({ valid: true });
      }
      // X-Signature keeps the secret receivers already hold; the new one signs beside it.
      expect(hook.headers['x-signature']).toBe(hmacSha1(OLD_SECRET, hook.raw));
      expect(hook.headers['x-signature-next']).toBe(hmacSha1(NEW_SECRET, hook.raw));
    }
  });

  it('after the grace period, signs with the new secret only', () => {
    for (const hook of received.rotated!) {
      for (const verify of Object.values(FOREIGN_VERIFIERS)) {
        expect(() => verify(NEW_SECRET, hook)).not.toThrow();
        expect(() => verify(OLD_SECRET, hook)).toThrow('No matching signature found');
      }
      expect(hook.headers['x-signature']).toBe(hmacSha1(NEW_SECRET, hook.raw));
      expect(hook.headers['x-signature-next']).toBeUndefined();
    }
  });

  it('never prints a secret', () => {
    const output = processes!.tails(100_000);
    expect(output).toContain('"level":20');
    for (const secret of [NEW_SECRET, OLD_SECRET])
      expect(output).not.toContain(secret.slice('whsec_'.length));
  });
});
