import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Analytics } from '@segment/analytics-node';
import { TopicNames, topicNames } from '@switchyard/contracts';
import { eventually, freshNamespace, testBrokers } from '../support/kafka-test-kit';
import { OtlpReceiver, ReceivedSpan, SPAN_KIND, STATUS_CODE } from '../support/otlp-receiver';
import { PIPELINE_MODES, PipelineMode, PipelineProcesses, SERVICES } from '../support/pipeline-processes';
import { ServiceProcess } from '../support/service-process';
import { conventionProblems, kafkaSpans, lineage, onlySpan } from '../support/trace-conventions';
import { WebhookReceiver } from '../support/webhook-receiver';
import { WorkspaceFile } from '../support/workspace-file';

const WRITE_KEY = 'e2e-write-key-0001';
const SECRET = 'e2e-shared-secret';
/** A source whose webhook fails once per message (503), then takes it. */
const RETRIED_KEY = 'e2e-retried-key-0001';
/** A source whose webhook refuses every message for good (410). */
const REFUSED_KEY = 'e2e-refused-key-0001';
/** Travels in the flaky webhook's query, as receivers' tokens often do; no span may show it. */
const QUERY_TOKEN = 'query-secret-7f3a';
const ADMIN_TOKEN = 'e2e-admin-token-0123456789';
const VERSION = (
  JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }
).version;

/** A W3C trace context of the test's own, as a traced caller of ingest would send. */
function callerContext(sampled = true) {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-${sampled ? '01' : '00'}` };
}

/**
 * The OpenTelemetry service a service's spans come from: its own when it runs alone, `switchyard`
 * when one process runs them all (one SDK, one resource).
 */
const otelService = (mode: PipelineMode, service: string) =>
  mode === 'split' ? `switchyard-${service}` : 'switchyard';

/**
 * The whole system as a user runs it: a real Segment SDK → ingest → Kafka → router → Kafka →
 * delivery → a real webhook receiver, traced with OpenTelemetry into an OTLP receiver inside the
 * test. Once with each service its own process, once with all three in one process.
 */
describe.each(PIPELINE_MODES)(
  'end to end (%s): SDK → ingest → router → delivery → webhook, one trace',
  (mode) => {
    const tracedServices = [...new Set(SERVICES.map((service) => otelService(mode, service)))].sort();
    let receiver: WebhookReceiver;
    let otlp: OtlpReceiver;
    let processes: PipelineProcesses | undefined;
    let workspace: WorkspaceFile | undefined;
    let ingestUrl: string;
    let topics: TopicNames;

    /**
     * The spans from the caller's request down to the span `end` picks from its trace, once all of
     * them have arrived. Followed as parent links: under load the router or delivery may process a
     * record twice (at-least-once), which adds spans beside this chain, never to it.
     */
    function chainOfSpans(
      caller: ReturnType<typeof callerContext>,
      end: (traced: ReceivedSpan[]) => ReceivedSpan | undefined,
      what: string,
    ): Promise<ReceivedSpan[]> {
      return eventually(
        () => {
          const traced = otlp.trace(caller.traceId);
          const last = end(traced);
          const hops = last && lineage(traced, last);
          return hops && hops[0].parentSpanId === caller.spanId && hops;
        },
        20_000,
        what,
      );
    }

    /** Sends one track call to ingest as a traced caller would, with `traceparent`. */
    async function trackWithTrace(writeKey: string, event: string, traceparent: string): Promise<void> {
      const response = await fetch(`${ingestUrl}/v1/track`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}`,
          'content-type': 'application/json',
          traceparent,
        },
        body: JSON.stringify({ userId: 'traced-user', event }),
      });
      expect(response.status).toBe(200);
    }

    beforeAll(async () => {
      receiver = await WebhookReceiver.start();
      otlp = await OtlpReceiver.start();
      workspace = new WorkspaceFile({
        sources: [
          { id: 'web', name: 'Web', writeKey: WRITE_KEY },
          { id: 'retried', name: 'Retried', writeKey: RETRIED_KEY },
          { id: 'refused', name: 'Refused', writeKey: REFUSED_KEY },
        ],
        destinations: [
          {
            id: 'hooks',
            type: 'Webhooks',
            enabled: true,
            sources: ['web'],
            settings: {
              sharedSecret: SECRET,
              webhooks: [{ url: receiver.url('/primary'), headers: { 'X-Receiver-Token': 'static-value' } }],
            },
          },
          {
            id: 'flaky',
            type: 'Webhooks',
            enabled: true,
            sources: ['retried'],
            settings: { webhooks: [{ url: receiver.url(`/flaky?token=${QUERY_TOKEN}`) }] },
          },
          {
            id: 'refusing',
            type: 'Webhooks',
            enabled: true,
            sources: ['refused'],
            settings: { webhooks: [{ url: receiver.url('/gone') }] },
          },
        ],
      });
      const failedOnce = new Set<unknown>();
      receiver.respond = (hook) => {
        if (hook.path === '/gone') return 410;
        if (hook.path.startsWith('/flaky') && !failedOnce.has(hook.body.messageId)) {
          failedOnce.add(hook.body.messageId);
          return 503;
        }
        return 200;
      };
      const namespace = freshNamespace('e2e');
      topics = topicNames(namespace);
      const env = {
        KAFKA_BROKERS: testBrokers(),
        TOPIC_NAMESPACE: namespace,
        TOPIC_PARTITIONS: '2',
        WORKSPACE_CONFIG: workspace.path,
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        DELIVERY_RETRY_SCHEDULE_MS: '100,200',
        ADMIN_TOKEN,
      };
      processes = await PipelineProcesses.start(env, mode);
      ingestUrl = processes.ingest.url;
    }, 180_000);

    afterAll(async () => {
      await processes?.stop();
      processes = undefined;
      await receiver?.stop();
      await otlp?.stop();
      workspace?.remove();
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
        context: expect.objectContaining({
          library: expect.objectContaining({ name: '@segment/analytics-node' }),
        }),
        messageId: expect.any(String),
      });
      expect(hook.body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

      // The webhook request carries the event's trace; ingest, router and delivery all report spans in it.
      const traceId = String(hook.headers.traceparent ?? '').split('-')[1];
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      const services = await eventually(
        () => {
          const seen = new Set(otlp.spans.filter((s) => s.traceId === traceId).map((s) => s.service));
          return tracedServices.every((s) => seen.has(s)) && seen;
        },
        20_000,
        'spans of all three services in the webhook trace',
      );
      expect([...services].sort()).toEqual(tracedServices);
      const deliverySpans = otlp.spans.filter(
        (s) => s.traceId === traceId && s.service === otelService(mode, 'delivery'),
      );
      expect(deliverySpans.some((s) => s.attributes['switchyard.message_id'] === hook.body.messageId)).toBe(
        true,
      );
    });

    it('traces an event delivered after one retry as one trace that follows OpenTelemetry conventions, exported as protobuf', async () => {
      const caller = callerContext();
      await trackWithTrace(RETRIED_KEY, 'Retried Once', caller.traceparent);
      const [hook] = await receiver.waitFor(1, (h) => h.body.event === 'Retried Once');

      // The receiver's traceparent continues the caller's trace: one trace id from the ingest request to the webhook.
      expect(String(hook.headers.traceparent)).toMatch(new RegExp(`^00-${caller.traceId}-[0-9a-f]{16}-01$`));
      const retryTopic = topics.retry(1);
      const finalRequestId = String(hook.headers.traceparent).split('-')[2];
      const chain = await chainOfSpans(
        caller,
        (traced) => traced.find((s) => s.spanId === finalRequestId),
        'every span from the ingest request to the delivered webhook request',
      );
      const spans = otlp.trace(caller.traceId);
      expect(new Set(spans.map((s) => s.service))).toEqual(new Set(tracedServices));
      expect(otlp.contentTypes).toEqual(new Set(['application/x-protobuf']));

      // Every Kafka span follows the messaging conventions.
      expect(kafkaSpans(otlp.spans).flatMap(conventionProblems)).toEqual([]);

      // The tree, hop by hop: each span's parent is the one before it.
      expect(chain.map((s) => s.name)).toEqual([
        'POST /v1/:endpoint',
        `create ${topics.events}`,
        `process ${topics.events}`,
        `create ${topics.deliveries}`,
        `process ${topics.deliveries}`,
        `create ${retryTopic}`,
        `process ${retryTopic}`,
        'POST',
      ]);
      const [
        server,
        createEvent,
        routing,
        createJob,
        firstAttempt,
        createRetry,
        secondAttempt,
        finalRequest,
      ] = chain;
      expect(server.kind).toBe(SPAN_KIND.server);
      expect(server.attributes).toMatchObject({
        'http.route': '/v1/:endpoint',
        'url.path': '/v1/track',
        'http.response.status_code': 200,
      });
      expect(routing.attributes).toMatchObject({
        'messaging.consumer.group.name': expect.stringContaining('.router.events'),
        'switchyard.message_id': hook.body.messageId,
      });
      expect(firstAttempt.attributes['messaging.consumer.group.name']).toMatch(/\.delivery$/);

      // The failed attempt is an ERROR, on the delivery span and on its webhook request; the retry is not.
      expect(firstAttempt.status.code).toBe(STATUS_CODE.error);
      expect(firstAttempt.attributes).toMatchObject({
        'switchyard.outcome': 'retry',
        'error.type': 'retry',
        'switchyard.attempt': 1,
      });
      expect(secondAttempt.status.code).not.toBe(STATUS_CODE.error);
      expect(secondAttempt.attributes).toMatchObject({
        'switchyard.outcome': 'delivered',
        'switchyard.attempt': 2,
      });
      const failedRequest = onlySpan(spans, 'POST', (s) => s.parentSpanId === firstAttempt.spanId);
      expect(failedRequest).toMatchObject({ kind: SPAN_KIND.client, status: { code: STATUS_CODE.error } });
      expect(failedRequest.attributes['http.response.status_code']).toBe(503);
      expect(finalRequest.kind).toBe(SPAN_KIND.client);
      expect(finalRequest.attributes).toMatchObject({
        'http.response.status_code': 200,
        'server.address': '127.0.0.1',
        'url.query': 'token=REDACTED',
      });
      // Webhook URLs appear without their query's values.
      const urls = spans
        .filter((s) => s.attributes['http.request.method'] && s.kind === SPAN_KIND.client)
        .map((s) => String(s.attributes['url.full']));
      expect(new Set(urls)).toEqual(new Set([receiver.url('/flaky?token=REDACTED')]));
      expect(JSON.stringify(otlp.spans)).not.toContain(QUERY_TOKEN);

      // Each Kafka produce request links to the creation contexts of the records it carried.
      for (const created of [createEvent, createJob, createRetry]) {
        const topic = String(created.attributes['messaging.destination.name']);
        const send = await eventually(
          () =>
            otlp.spans.find(
              (s) =>
                s.name === `send ${topic}` &&
                s.links.some((l) => l.traceId === caller.traceId && l.spanId === created.spanId),
            ),
          10_000,
          `a send span linked to ${created.name}`,
        );
        expect(send.attributes).toMatchObject({
          'messaging.destination.partition.id': expect.stringMatching(/^\d+$/),
        });
      }

      // The resource names each service, its version (package.json) and its instance.
      for (const span of spans) {
        expect(span.resource).toMatchObject({
          'service.name': span.service,
          'service.version': VERSION,
          'service.instance.id': expect.stringMatching(/^[0-9a-f-]{36}$/),
        });
      }
    });

    it("ends a dead-lettered job's trace in ERROR with the failure kind", async () => {
      const caller = callerContext();
      await trackWithTrace(REFUSED_KEY, 'Refused For Good', caller.traceparent);
      const attempt = await eventually(
        () => otlp.trace(caller.traceId).find((s) => s.name === `process ${topics.deliveries}`),
        20_000,
        "the dead-lettered job's delivery span",
      );
      expect(attempt.status).toEqual({
        code: STATUS_CODE.error,
        message: expect.stringMatching(/^dead-lettered \(permanent\): .*HTTP 410/),
      });
      expect(attempt.attributes).toMatchObject({
        'switchyard.outcome': 'dead-lettered',
        'switchyard.failure': 'permanent',
        'error.type': 'permanent',
      });
      const deadLetter = await eventually(
        () => otlp.trace(caller.traceId).find((s) => s.name === `create ${topics.deliveriesDead}`),
        10_000,
        "the dead letter's create span",
      );
      expect(deadLetter.parentSpanId).toBe(attempt.spanId);
    });

    it('traces an admin deletion request through the router to every destination it notifies', async () => {
      const caller = callerContext();
      const response = await fetch(`${ingestUrl}/admin/v1/deletions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          'content-type': 'application/json',
          traceparent: caller.traceparent,
        },
        body: JSON.stringify({ userIds: ['deleted-user'], sourceIds: ['web'] }),
      });
      expect(response.status).toBe(200);
      const chain = await chainOfSpans(
        caller,
        (traced) => traced.find((s) => s.name === `process ${topics.deliveries}`),
        'every span from the deletion request to its delivery',
      );
      const spans = otlp.trace(caller.traceId);
      expect(chain.map((s) => s.name)).toEqual([
        'POST /admin/v1/deletions',
        `create ${topics.deletions}`,
        `process ${topics.deletions}`,
        `create ${topics.deliveries}`,
        `process ${topics.deliveries}`,
      ]);
      const [server, , fanOut] = chain;
      expect(server.attributes).toMatchObject({
        'http.route': '/admin/v1/deletions',
        'http.response.status_code': 200,
      });
      expect(fanOut.attributes['messaging.consumer.group.name']).toMatch(/\.router\.deletions$/);
      expect(kafkaSpans(spans).flatMap(conventionProblems)).toEqual([]);
    });

    it('keeps an upstream decision not to sample across Kafka: no service records the trace, the receiver still gets its context', async () => {
      const unsampled = callerContext(false);
      await trackWithTrace(WRITE_KEY, 'Not Sampled', unsampled.traceparent);
      const [hook] = await receiver.waitFor(1, (h) => h.body.event === 'Not Sampled');
      expect(String(hook.headers.traceparent)).toMatch(
        new RegExp(`^00-${unsampled.traceId}-[0-9a-f]{16}-00$`),
      );
      // A sampled event sent after it: once its webhook request's span is in, every earlier span would be too.
      const sampled = callerContext();
      await trackWithTrace(WRITE_KEY, 'Sampled After', sampled.traceparent);
      await eventually(
        () => {
          const traced = otlp.trace(sampled.traceId);
          return (
            new Set(traced.map((s) => s.service)).size === tracedServices.length &&
            traced.some((s) => s.service === otelService(mode, 'delivery') && s.kind === SPAN_KIND.client)
          );
        },
        20_000,
        "the sampled event's spans from all three services",
      );
      expect(otlp.trace(unsampled.traceId)).toEqual([]);
    });

    it('reports what happened on every service /metrics', async () => {
      const scrape = async (service: ServiceProcess) => (await fetch(`${service.url}/metrics`)).text();
      const { services } = processes!;
      const [ingest, router, delivery] = await Promise.all(
        [services.ingest, services.router, services.delivery].map(scrape),
      );
      expect(ingest).toMatch(/switchyard_ingest_calls_accepted_total\{type="track"\} [1-9]/);
      expect(router).toMatch(/switchyard_router_calls_total\{outcome="routed"\} [1-9]/);
      expect(delivery).toMatch(
        /switchyard_delivery_jobs_total\{destination="hooks",outcome="delivered"\} [1-9]/,
      );
      expect(delivery).toMatch(
        /switchyard_delivery_request_duration_seconds_count\{destination="hooks",result="delivered"\} [1-9]/,
      );
      // The backlog is read from the broker at scrape time and left out of a scrape the broker is
      // too busy to answer within 2 s (a loaded machine): scrape again until it is there.
      const backlog = await eventually(
        async () =>
          /switchyard_delivery_retry_backlog\{tier="1"\} (\d+)/.exec(await scrape(services.delivery))?.[1],
        30_000,
        'the retry backlog',
      );
      expect(backlog).toBe('0');
      for (const text of [ingest, router, delivery])
        expect(text).toMatch(/process_resident_memory_bytes \d+/);
    });
  },
);
