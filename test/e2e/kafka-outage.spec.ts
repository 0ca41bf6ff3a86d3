import { describeTimeline, KafkaOutage, OutageRun } from '../support/kafka-outage';
import { topicModeEnv } from '../support/management-api';
import { SERVICES } from '../support/pipeline-processes';
import { freePort, ServiceProcess } from '../support/service-process';

const WAITING = 'Kafka brokers do not answer; waiting for them before serving';
const STARTING = 'Kafka brokers answer; starting';

/**
 * The only broker dies under load and is away for over a minute (down 35 s, then at least the 30 s
 * its restart takes to register again: KafkaOutage's `downMs`), long enough for every
 * client's retry backoff to reach its ceiling, and for a start-up step's own retries of the
 * client's on top. The router is rolled meanwhile and so starts while Kafka is away. So do four
 * more services that follow the workspace topic (as every service does without a workspace file),
 * launched as the broker dies, in a namespace of their own. When the broker is back, each service
 * must write and read again on its own, and its readiness must have said the truth throughout.
 * The moments are printed (bench/README.md has the figures from `npm run bench:outage`); only
 * their order is asserted.
 */
describe('Kafka comes back after a long outage', () => {
  const startedWhileAway: ServiceProcess[] = [];
  const outage = new KafkaOutage({
    downMs: 35_000,
    restartWhileDown: 'router',
    label: 'outage',
    whenBrokerKilled: async (brokers) => {
      const env = { ...topicModeEnv('outage-topic-mode'), KAFKA_BROKERS: brokers, LOG_LEVEL: 'info' };
      for (const name of ['ingest', 'router', 'delivery', 'console'] as const)
        startedWhileAway.push(ServiceProcess.launch(name, await freePort(), env));
    },
  });
  let run: OutageRun;

  beforeAll(async () => {
    try {
      run = await outage.run();
    } catch (error) {
      console.log(outage.tails());
      throw error;
    }
    console.log('Kafka outage, seconds from the broker answering again:', describeTimeline(run.timeline));
  }, 420_000);

  // Past ServiceProcess.stop's report of a service slow to exit, so a stuck one is named.
  afterAll(async () => {
    await Promise.all(startedWhileAway.map((service) => service.stop()));
    await outage.stop();
  }, 120_000);

  it('acknowledges no call while the broker is down', () => {
    const { killedAt, brokerStartedAt } = run.timeline;
    const during = run.calls.filter((c) => c.sentAt >= killedAt && c.answeredAt < brokerStartedAt);
    expect(during.length).toBeGreaterThan(0);
    expect(during.filter((c) => c.status === 200)).toEqual([]);
  });

  it('keeps every service unready until the broker is back', () => {
    const { allUnreadyAt, brokerStartedAt } = run.timeline;
    const down = run.readiness.filter((s) => s.at >= allUnreadyAt && s.at < brokerStartedAt);
    expect(down.length).toBeGreaterThan(0);
    expect(down.filter((s) => SERVICES.some((name) => s[name] === 200))).toEqual([]);
  });

  it('acknowledges the calls sent once ingest says it is ready again', () => {
    const { readyAgainAt } = run.timeline;
    const sentWhenReady = run.calls.filter((c) => c.sentAt >= readyAgainAt.ingest);
    expect(sentWhenReady.length).toBeGreaterThan(0);
    expect(sentWhenReady[0].status).toBe(200);
  });

  it('writes and delivers again after the broker’s return, the rolled router included', () => {
    const t = run.timeline;
    expect(t.killedAt).toBeLessThan(t.allUnreadyAt);
    expect(t.allUnreadyAt).toBeLessThan(t.serviceRestartedAt!);
    expect(t.serviceRestartedAt!).toBeLessThan(t.brokerStartedAt);
    expect(t.firstAcceptedAt).toBeGreaterThan(t.brokerStartedAt);
    expect(t.firstDeliveredAt).toBeGreaterThan(t.brokerStartedAt);
    for (const name of SERVICES) expect(t.readyAgainAt[name]).toBeGreaterThan(t.brokerStartedAt);
    expect(run.exited).toEqual({});
  });

  it('tells each client’s outage once at warn, and its recovery at info', () => {
    // From the kill on: a fresh broker's first writes may already have failed once at start-up.
    const lines = (service: keyof OutageRun['logs'], msg: string) =>
      run.logs[service].filter((l) => l.msg === msg && Number(l.time) >= run.timeline.killedAt);
    const warn = 40;
    const info = 30;
    // Whether delivery's consumer runs out of retries within the outage depends on the machine's
    // load (each retry waits for a connection attempt); when it does, that is told once, at warn.
    const gaveUp = lines('delivery', 'consumer gave up after its retries; restarting it');
    expect(gaveUp.length).toBeLessThanOrEqual(1);
    expect(gaveUp.map((l) => [l.level, typeof l.restartInMs])).toEqual(gaveUp.map(() => [warn, 'number']));
    const couldNotWrite = lines(
      'ingest',
      'producer could not write after its retries; each new send tries again at once',
    );
    expect(couldNotWrite.map((l) => l.level)).toEqual([warn]);
    for (const service of ['ingest', 'delivery'] as const) {
      const back = lines(service, 'Kafka client working again');
      expect(back.length).toBeGreaterThan(0);
      expect(back.every((l) => l.level === info && typeof l.outageSeconds === 'number')).toBe(true);
    }
    // The router, started while the broker was away, waited for it instead of exiting.
    expect(lines('router', WAITING)).toHaveLength(1);
    expect(lines('router', STARTING)).toHaveLength(1);
  });

  it('lets services that follow the workspace topic, started while it is away, wait and then serve', async () => {
    // ready() fails at once for a service that exited, which is what waiting must prevent.
    await Promise.all(startedWhileAway.map((service) => service.ready(120_000)));
    for (const service of startedWhileAway) {
      expect(service.tail(Infinity)).toContain(WAITING);
      expect(service.tail(Infinity)).toContain(STARTING);
    }
  }, 150_000);

  it('loses no acknowledged event', () => {
    expect(run.calls.filter((c) => c.status === 200).length).toBeGreaterThan(0);
    expect(run.missingAmongAcknowledged).toEqual([]);
  });
});
