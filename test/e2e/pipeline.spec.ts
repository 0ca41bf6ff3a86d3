import { createHmac } from 'node:crypto';
import { Analytics } from '@segment/analytics-node';
import { eventually, freshNamespace, testBrokers } from '../support/kafka-test-kit';
import { OtlpReceiver } from '../support/otlp-receiver';
import { freePort, ServiceProcess } from '../support/service-process';
import { WebhookReceiver } from '../support/webhook-receiver';
import { WorkspaceFile } from '../support/workspace-file';

const WRITE_KEY = 'e2e-write-key-0001';
const SECRET = 'e2e-shared-secret';

/**
 * The whole system as a user runs it: a real Segment SDK → ingest → Kafka → router → Kafka →
 * delivery → a real webhook receiver, each service its own process, traced with OpenTelemetry
 * into an OTLP receiver inside the test.
 */
describe('end to end: SDK → ingest → router → delivery → webhook, one trace', () => {
  let receiver: WebhookReceiver;
  let otlp: OtlpReceiver;
  let services: ServiceProcess[] = [];
  let ingestUrl: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    otlp = await OtlpReceiver.start();
    const workspace = new WorkspaceFile({
      sources: [{ id: 'web', name: 'Web', writeKey: WRITE_KEY }],
      destinations: [
        {
          id: 'hooks',
          type: 'Webhooks',
          enabled: true,
          sources: ['web'],
          settings: { sharedSecret: SECRET, webhooks: [{ url: receiver.url('/primary'), headers: { 'X-Receiver-Token': 'static-value' } }] },
        },
      ],
    });
    const env = {
      KAFKA_BROKERS: testBrokers(),
      TOPIC_NAMESPACE: freshNamespace('e2e'),
      TOPIC_PARTITIONS: '2',
      WORKSPACE_CONFIG: workspace.path,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      DELIVERY_RETRY_SCHEDULE_MS: '100,200',
    };
    // Started one after the other: each creates the topics it needs before the next consumes them.
    for (const name of ['ingest', 'router', 'delivery'] as const) services.push(await ServiceProcess.start(name, await freePort(), env));
    ingestUrl = services[0].url;
  }, 180_000);

  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    services = [];
    await receiver?.stop();
    await otlp?.stop();
  });

  it('delivers a signed track call with the envelope, static header and one trace across all three services', async () => {
    const client = new Analytics({ writeKey: WRITE_KEY, host: ingestUrl, maxEventsInBatch: 1 });
    client.track({ userId: 'e2e-user', event: 'Order Completed', properties: { revenue: 42.5 } });
    client.track({ userId: 'e2e-user', event: 'Not For Webhooks', integrations: { All: false } });
    client.track({ userId: 'e2e-user', event: 'Sentinel', integrations: { All: false, Webhooks: true } });
    await client.closeAndFlush({ timeout: 20_000 });

    await receiver.waitFor(1, (h) => h.body.event === 'Sentinel');
    const [hook] = await receiver.waitFor(1, (h) => h.body.event === 'Order Completed');
    expect(receiver.received.filter((h) => h.body.event === 'Not For Webhooks')).toEqual([]);

    expect(hook.path).toBe('/primary');
    expect(hook.headers['content-type']).toBe('application/json');
    expect(hook.headers['user-agent']).toBe('Switchyard/1.0');
    expect(hook.headers['x-receiver-token']).toBe('static-value');
    expect(hook.headers['x-signature']).toBe(createHmac('sha1', SECRET).update(hook.raw).digest('hex'));
    expect(hook.body).toMatchObject({
      version: 1,
      type: 'track',
      userId: 'e2e-user',
      event: 'Order Completed',
      properties: { revenue: 42.5 },
      context: expect.objectContaining({ library: expect.objectContaining({ name: '@segment/analytics-node' }) }),
      messageId: expect.any(String),
    });
    expect(hook.body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    // The webhook request carries the event's trace; ingest, router and delivery all report spans in it.
    const traceId = String(hook.headers.traceparent ?? '').split('-')[1];
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const services = await eventually(() => {
      const seen = new Set(otlp.spans.filter((s) => s.traceId === traceId).map((s) => s.service));
      return ['switchyard-ingest', 'switchyard-router', 'switchyard-delivery'].every((s) => seen.has(s)) && seen;
    }, 20_000, 'spans of all three services in the webhook trace');
    expect([...services].sort()).toEqual(['switchyard-delivery', 'switchyard-ingest', 'switchyard-router']);
    const deliverySpans = otlp.spans.filter((s) => s.traceId === traceId && s.service === 'switchyard-delivery');
    expect(deliverySpans.some((s) => s.attributes['switchyard.message_id'] === hook.body.messageId)).toBe(true);
  });

  it('reports what happened on every service /metrics', async () => {
    const scrape = async (service: ServiceProcess) => (await fetch(`${service.url}/metrics`)).text();
    const [ingest, router, delivery] = await Promise.all(services.map(scrape));
    expect(ingest).toMatch(/switchyard_ingest_calls_accepted_total\{type="track"\} [1-9]/);
    expect(router).toMatch(/switchyard_router_calls_total\{outcome="routed"\} [1-9]/);
    expect(delivery).toMatch(/switchyard_delivery_jobs_total\{outcome="delivered"\} [1-9]/);
    expect(delivery).toMatch(/switchyard_delivery_request_duration_seconds_count\{result="delivered"\} [1-9]/);
    expect(delivery).toMatch(/switchyard_delivery_retry_backlog\{tier="1"\} 0/);
    for (const text of [ingest, router, delivery]) expect(text).toMatch(/process_resident_memory_bytes \d+/);
  });
});
