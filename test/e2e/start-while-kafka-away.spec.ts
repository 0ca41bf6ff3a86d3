import { eventually } from '../support/kafka-test-kit';
import { LocalKafka } from '../support/local-kafka';
import { topicModeEnv } from '../support/management-api';
import { freePort, ServiceProcess } from '../support/service-process';

const SERVICES = ['ingest', 'router', 'delivery', 'console'] as const;
const WAITING = 'Kafka brokers do not answer; waiting for them before serving';
/**
 * How long the broker stays away after the services start: past the client's retries (about half
 * a minute) and a start-up step's own retries of them on top (another half minute).
 */
const AWAY_MS = 65_000;

/**
 * Services that follow the workspace topic, as every service does unless given a workspace file,
 * started while their only broker is away for longer than the Kafka client's own retries: each
 * waits for the broker rather than exiting into a supervisor's restart backoff, and serves once
 * the broker is up. The broker is the test's own, on free ports, first started after them.
 */
describe('services started while Kafka is away', () => {
  let kafka: LocalKafka | undefined;
  const services: ServiceProcess[] = [];

  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await kafka?.stop();
  }, 120_000);

  it('wait past the client’s retries for the broker, then serve', async () => {
    kafka = await LocalKafka.unstartedCluster(1);
    const env = { ...topicModeEnv('kafka-away'), KAFKA_BROKERS: kafka.brokers, LOG_LEVEL: 'info' };
    const launchedAt = Date.now();
    for (const name of SERVICES) services.push(ServiceProcess.launch(name, await freePort(), env));
    const noneExited = () => services.forEach((service) => service.throwIfExited());

    // Told once the client's retries are spent: every start-up step has failed at least once by then.
    await eventually(
      () => {
        noneExited();
        return services.every((service) => service.tail(200).includes(WAITING));
      },
      120_000,
      'every service to say it waits for the brokers',
    );
    // The outage's schedule, watched for an exit meanwhile.
    await eventually(
      () => {
        noneExited();
        return Date.now() >= launchedAt + AWAY_MS;
      },
      AWAY_MS + 10_000,
      'the end of the outage',
    );
    await kafka.restart();

    await Promise.all(services.map((service) => service.ready(120_000)));
    for (const service of services) expect(service.tail(200)).toContain('Kafka brokers answer; starting');
  }, 300_000);
});
