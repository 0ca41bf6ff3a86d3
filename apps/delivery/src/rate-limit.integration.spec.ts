import { eventually, freshNamespace } from '../../../test/support/kafka-test-kit';
import { sampleValue, scrape } from '../../../test/support/prometheus-text';
import { freePort, ServiceProcess } from '../../../test/support/service-process';
import { deliveryEnv, job, JobProducer, TestCleanups } from '../test-support/delivery-harness';

const PER_SECOND = 50;
const BURST = 10;
const JOBS = 300;

describe('a rate limit held across delivery processes (real Kafka, real receiver)', () => {
  const cleanups = new TestCleanups();

  it('three processes together never send one destination more than perSecond × elapsed + burst', async () => {
    const hook = await cleanups.receiver(() => 200);
    const workspace = cleanups.workspace([
      { id: 'limited', webhooks: [{ url: hook.url }], rateLimit: { perSecond: PER_SECOND, burst: BURST } },
    ]);
    const namespace = freshNamespace('rate');
    // Six partitions per topic, so three members each own a share; retry tiers long enough that a
    // throttled job waits for its slot in one of them rather than asking again and again.
    const env = deliveryEnv(namespace, workspace.path, {
      TOPIC_PARTITIONS: '6',
      DELIVERY_RETRY_SCHEDULE_MS: '1000,5000',
      LOG_LEVEL: 'warn',
    });
    const processes: ServiceProcess[] = [];
    for (let i = 0; i < 3; i++) {
      const process = await ServiceProcess.start('delivery', await freePort(), env);
      cleanups.add(() => process.stop('SIGTERM'));
      processes.push(process);
    }
    // The group has settled once the three shares of the limit add up to the whole.
    await eventually(
      async () => {
        const shares = await Promise.all(
          processes.map(
            async (p) => sampleValue(await scrape(p.url), 'switchyard_delivery_rate_limit_share') ?? 1,
          ),
        );
        return shares.every((s) => s < 1) && Math.abs(shares.reduce((a, b) => a + b) - 1) < 1e-9;
      },
      60_000,
      'the three delivery processes to share the partitions',
    );

    const producer = await JobProducer.connect(namespace);
    cleanups.add(() => producer.close());
    await producer.send(...Array.from({ length: JOBS }, (_, i) => job('limited', i)));
    const requests = await hook.waitForRequests(JOBS, 120_000);

    const elapsedMs = requests[requests.length - 1].at - requests[0].at;
    // The bound the limiter guarantees over any stretch of time, measured on the receiver's clock.
    expect(requests.length).toBeLessThanOrEqual((PER_SECOND * elapsedMs) / 1000 + BURST);
    // Each job once: waiting for a send slot is not an attempt and loses nothing.
    const messageIds = new Set(requests.map((r) => JSON.parse(r.rawBody.toString()).messageId));
    expect(messageIds.size).toBe(JOBS);
  }, 240_000);
});
