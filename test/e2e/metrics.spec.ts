import { eventually, freshNamespace, testBrokers } from '../support/kafka-test-kit';
import { Sample, sampleValue, scrape } from '../support/prometheus-text';
import { promtool } from '../support/promtool';
import { freePort, ServiceProcess } from '../support/service-process';
import { WebhookReceiver } from '../support/webhook-receiver';
import { WorkspaceFile } from '../support/workspace-file';

const WRITE_KEY = 'metrics-write-key-0001';
const COMMIT = 'abc1234';

/** Destination id → the status its receiver answers. */
const ANSWERS = { accepting: 200, failing: 500, gone: 404 } as const;

function workspace(extraDestinations: string[] = []) {
  const webhooks = (id: string, path: string, sources: string[]) => ({
    id,
    type: 'Webhooks',
    enabled: true,
    sources,
    settings: { webhooks: [{ url: receiverUrl(path) }] },
  });
  return {
    sources: [
      { id: 'web', name: 'Web', writeKey: WRITE_KEY },
      { id: 'quiet', name: 'Quiet', writeKey: 'metrics-quiet-key-0001' },
    ],
    destinations: [
      ...Object.keys(ANSWERS).map((id) => webhooks(id, `/${id}`, ['web'])),
      // Configured, never sent anything: its counters must exist at 0 all the same.
      webhooks('idle', '/idle', ['quiet']),
      ...extraDestinations.map((id) => webhooks(id, `/${id}`, ['quiet'])),
    ],
  };
}

let receiver: WebhookReceiver;
const receiverUrl = (path: string) => receiver.url(path);

/**
 * The metrics an operator reads, from the real pipeline: a real HTTP call → ingest → Kafka →
 * router → Kafka → delivery → three real receivers answering 200, 500 and 404, each service its
 * own process, each `/metrics` scraped over HTTP.
 */
describe('metrics of the running pipeline, per destination', () => {
  let ingest: ServiceProcess;
  let router: ServiceProcess;
  let delivery: ServiceProcess;
  let file: WorkspaceFile;
  let namespace: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    receiver.respond = (hook) => ANSWERS[hook.path.slice(1) as keyof typeof ANSWERS] ?? 200;
    file = new WorkspaceFile(workspace());
    namespace = freshNamespace('metrics');
    const env = {
      KAFKA_BROKERS: testBrokers(),
      TOPIC_NAMESPACE: namespace,
      TOPIC_PARTITIONS: '2',
      WORKSPACE_CONFIG: file.path,
      SWITCHYARD_COMMIT: COMMIT,
      INGEST_MAX_REQUEST_BYTES: '2048',
      DELIVERY_RETRY_SCHEDULE_MS: '100,200',
      DELIVERY_RETRY_WINDOW_MS: '1500',
      DELIVERY_RETRY_JITTER: '0',
      // Two failures open a circuit, and it stays open for the whole test.
      DELIVERY_BREAKER_FAILURE_THRESHOLD: '2',
      DELIVERY_BREAKER_OPEN_MS: '600000',
    };
    // One after the other: each creates the topics it needs before the next consumes them.
    ingest = await ServiceProcess.start('ingest', await freePort(), env);
    router = await ServiceProcess.start('router', await freePort(), env);
    delivery = await ServiceProcess.start('delivery', await freePort(), env);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([ingest, router, delivery].filter(Boolean).map((s) => s.stop()));
    await receiver?.stop();
    file?.remove();
  });

  it('tells the destinations apart, counts the delivered event in the age histogram, and exports every counter from 0', async () => {
    const auth = { authorization: `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}` };
    const post = (path: string, contentType: string, body: string) =>
      fetch(`${ingest.url}${path}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': contentType },
        body,
      });
    expect(
      (
        await post(
          '/v1/track',
          'application/json',
          JSON.stringify({ userId: 'metrics-user', event: 'Order Completed' }),
        )
      ).status,
    ).toBe(200);
    // Refused before the controller runs (body parsing), then by the router and by the controller.
    expect((await post('/v1/track', 'application/xml', '<track/>')).status).toBe(415);
    expect(
      (
        await post(
          '/v1/track',
          'application/json',
          JSON.stringify({ userId: 'u', event: 'e', properties: { pad: 'x'.repeat(3000) } }),
        )
      ).status,
    ).toBe(413);
    expect((await post('/v1/nope', 'application/json', '{}')).status).toBe(404);
    expect((await fetch(`${ingest.url}/nowhere`)).status).toBe(404);
    await receiver.waitFor(1, (h) => h.path === '/accepting');

    // The 500 destination retries until its 1.5 s window is spent; the 404 one is dead at once.
    // Routing is at-least-once, so a loaded machine may hand delivery a job twice: counts are
    // per job, and every counter of a destination must agree on how many jobs it had.
    const d = await eventually(
      async () => {
        const samples = await scrape(delivery.url);
        const dead = (destination: string, failure: string) =>
          sampleValue(samples, 'switchyard_delivery_dead_letters_total', { destination, failure }) ?? 0;
        return dead('failing', 'window-spent') >= 1 && dead('gone', 'permanent') >= 1 && samples;
      },
      30_000,
      'both failing jobs dead-lettered',
    );
    const value = (name: string, labels: Record<string, string>, samples: Sample[] = d) =>
      sampleValue(samples, name, labels);
    const jobs = (destination: string, outcome: string) =>
      value('switchyard_delivery_jobs_total', { destination, outcome });

    const acceptingJobs = jobs('accepting', 'delivered') ?? 0;
    expect(acceptingJobs).toBeGreaterThanOrEqual(1);
    expect(jobs('accepting', 'dead')).toBe(0);
    expect(
      value('switchyard_delivery_request_duration_seconds_count', {
        destination: 'accepting',
        result: 'delivered',
      }),
    ).toBe(acceptingJobs);

    const goneJobs = value('switchyard_delivery_dead_letters_total', {
      destination: 'gone',
      failure: 'permanent',
    });
    expect(jobs('gone', 'dead')).toBe(goneJobs);
    expect(jobs('gone', 'retry')).toBe(0);
    expect(
      value('switchyard_delivery_dead_letters_total', { destination: 'gone', failure: 'window-spent' }),
    ).toBe(0);
    expect(
      value('switchyard_delivery_request_duration_seconds_count', {
        destination: 'gone',
        result: 'permanent',
      }),
    ).toBe(goneJobs);

    // Each failing job's first retry (tier 1) always fits the window; how many more fit depends
    // on how fast the machine is.
    const failingJobs =
      value('switchyard_delivery_dead_letters_total', { destination: 'failing', failure: 'window-spent' }) ??
      0;
    expect(jobs('failing', 'delivered')).toBe(0);
    expect(jobs('failing', 'retry')).toBeGreaterThanOrEqual(failingJobs);
    expect(value('switchyard_delivery_retries_total', { destination: 'failing', tier: '1' })).toBe(
      failingJobs,
    );

    // End-to-end age: the delivered event only, measured from ingest's receipt.
    expect(value('switchyard_delivery_event_age_seconds_count', { destination: 'accepting' })).toBe(
      acceptingJobs,
    );
    expect(value('switchyard_delivery_event_age_seconds_sum', { destination: 'accepting' })).toBeGreaterThan(
      0,
    );
    expect(value('switchyard_delivery_event_age_seconds_count', { destination: 'failing' }) ?? 0).toBe(0);

    // Circuits per URL index: the 500 URL opened after two failures; the others stay closed.
    expect(value('switchyard_delivery_circuit_state', { destination: 'failing', url_index: '0' })).toBe(2);
    expect(value('switchyard_delivery_circuit_state', { destination: 'accepting', url_index: '0' })).toBe(0);
    expect(value('switchyard_delivery_requests_in_flight', { destination: 'accepting' })).toBe(0);

    // A configured destination that never had a job, and jobs of destinations nobody configured, start at 0.
    for (const destination of ['idle', '(unconfigured)']) {
      expect(value('switchyard_delivery_dead_letters_total', { destination, failure: 'permanent' })).toBe(0);
      expect(value('switchyard_delivery_jobs_total', { destination, outcome: 'delivered' })).toBe(0);
      expect(value('switchyard_delivery_retries_total', { destination, tier: '2' })).toBe(0);
    }

    const i = await scrape(ingest.url);
    expect(value('switchyard_ingest_calls_accepted_total', { type: 'track' }, i)).toBe(1);
    expect(value('switchyard_ingest_calls_accepted_total', { type: 'identify' }, i)).toBe(0);
    expect(value('switchyard_ingest_requests_rejected_total', { reason: 'unsupported_media_type' }, i)).toBe(
      1,
    );
    expect(value('switchyard_ingest_requests_rejected_total', { reason: 'payload_too_large' }, i)).toBe(1);
    expect(value('switchyard_ingest_requests_rejected_total', { reason: 'not_found' }, i)).toBe(2);
    expect(value('switchyard_ingest_requests_rejected_total', { reason: 'message_too_large' }, i)).toBe(0);
    expect(value('switchyard_ingest_produce_duration_seconds_count', { result: 'acknowledged' }, i)).toBe(1);
    expect(
      value('switchyard_http_request_duration_seconds_count', { route: '/v1/track', status: '200' }, i),
    ).toBe(1);
    expect(
      value('switchyard_http_request_duration_seconds_count', { route: '/v1/track', status: '415' }, i),
    ).toBe(1);
    expect(
      value('switchyard_http_request_duration_seconds_count', { route: '/v1/:endpoint', status: '404' }, i),
    ).toBe(1);
    expect(
      value('switchyard_http_request_duration_seconds_count', { route: 'unmatched', status: '404' }, i),
    ).toBe(1);
  });

  it("serves /metrics whose switchyard_* families promtool's linter accepts, on every service", async () => {
    for (const service of [ingest, router, delivery]) {
      const { output } = promtool(['check', 'metrics'], await (await fetch(`${service.url}/metrics`)).text());
      // prom-client's own nodejs_active_*_total gauges break a naming rule; ours must not, and the text must parse.
      const problems = output
        .split('\n')
        .filter((line) => line.startsWith('switchyard_') || /error/i.test(line));
      expect({ service: service.name, problems }).toEqual({ service: service.name, problems: [] });
    }
  });

  it('reports consumer lag per group, topic and partition, read from the broker', async () => {
    const lagOf = async (service: ServiceProcess, group: string, topic: string) => {
      const samples = await scrape(service.url);
      return ['0', '1'].map((partition) =>
        sampleValue(samples, 'switchyard_kafka_consumer_lag', { group, topic, partition }),
      );
    };
    // Everything sent was consumed and committed: zero on both partitions of each input.
    await eventually(
      async () =>
        (await lagOf(router, `${namespace}.router.events`, `${namespace}.events.ingested.v1`)).every(
          (lag) => lag === 0,
        ),
      20_000,
      "the router's events lag at 0",
    );
    await eventually(
      async () =>
        (await lagOf(delivery, `${namespace}.delivery`, `${namespace}.deliveries.v1`)).every(
          (lag) => lag === 0,
        ),
      20_000,
      "delivery's lag at 0",
    );
    expect(await lagOf(router, `${namespace}.router.audiences`, `${namespace}.audiences.synced.v1`)).toEqual([
      0, 0,
    ]);
    const retryTier = await lagOf(delivery, `${namespace}.delivery`, `${namespace}.deliveries.retry.1.v1`);
    expect(retryTier.every((lag) => lag !== undefined)).toBe(true);
  });

  it('counts applied and refused workspace reloads on every service, with the live version and the build', async () => {
    const services = [ingest, router, delivery];
    const versionOf = (samples: Sample[]) =>
      samples.find((s) => s.name === 'switchyard_workspace_config_info' && s.value === 1)?.labels.version;
    const before = await Promise.all(services.map((service) => scrape(service.url)));
    const [firstVersion] = before.map(versionOf);
    expect(firstVersion).toMatch(/^[0-9a-f]{12}$/);
    for (const samples of before) {
      expect(versionOf(samples)).toBe(firstVersion);
      expect(sampleValue(samples, 'switchyard_workspace_reloads_total', { result: 'refused' })).toBe(0);
      expect(sampleValue(samples, 'switchyard_build_info', { commit: COMMIT, version: '0.1.0' })).toBe(1);
    }

    file.update(workspace(['added']));
    const applied = await Promise.all(
      services.map((service) =>
        eventually(
          async () => {
            const samples = await scrape(service.url);
            return (
              sampleValue(samples, 'switchyard_workspace_reloads_total', { result: 'applied' }) === 1 &&
              samples
            );
          },
          20_000,
          `${service.name} to apply the edit`,
        ),
      ),
    );
    const secondVersion = versionOf(applied[0]);
    expect(secondVersion).not.toBe(firstVersion);
    expect(applied.map(versionOf)).toEqual([secondVersion, secondVersion, secondVersion]);
    // The destination the edit added has its counters at once.
    expect(
      sampleValue(applied[2], 'switchyard_delivery_dead_letters_total', {
        destination: 'added',
        failure: 'permanent',
      }),
    ).toBe(0);

    file.update('{ "sources": [');
    const refused = await Promise.all(
      services.map((service) =>
        eventually(
          async () => {
            const samples = await scrape(service.url);
            return (
              sampleValue(samples, 'switchyard_workspace_reloads_total', { result: 'refused' }) === 1 &&
              samples
            );
          },
          20_000,
          `${service.name} to refuse the broken edit`,
        ),
      ),
    );
    expect(refused.map(versionOf)).toEqual([secondVersion, secondVersion, secondVersion]);
  });
});
