import type { Logger } from 'pino';
import { checkKafkaConnection } from './connection-check';
import { KAFKA_RETRY, KafkaConnection } from './kafka-client';
import { KafkaClient } from './kafka-port';
import { isBrokersAwayError, isTransientKafkaError } from './kafka-errors';
import { ensureTopics, TopicPolicy, TopicSpec } from './topic-admin';

/** What a service asks of Kafka before it serves. */
export interface KafkaStartup {
  kafka: KafkaClient;
  connection: KafkaConnection;
  /** The topics the service reads or writes; created (or, without the right to, checked) first. */
  topics: TopicSpec[];
  policy: TopicPolicy;
  /** Connects the service's producers and consumers once its topics exist. */
  connect: () => Promise<void>;
  logger: Logger;
}

/**
 * Every service's start-up, in order: a connection the brokers refuse is named before anything
 * waits on it, topics exist before a producer writes or a consumer subscribes, and only then do
 * the service's clients connect.
 *
 * Brokers that are merely away (a pod started during a Kafka outage) are waited for rather than
 * given up on: exiting would put the pod in the supervisor's restart backoff, which grows to
 * minutes and outlasts the outage, while waiting starts the service within a second or so of the
 * brokers' return (the clients try each second, KAFKA_RETRY).
 */
export async function startKafka({
  kafka,
  connection,
  topics,
  policy,
  connect,
  logger,
}: KafkaStartup): Promise<void> {
  await untilBrokersAnswer(async () => {
    await checkKafkaConnection(kafka, connection);
    await ensureTopics(kafka, topics, policy);
  }, logger);
  await connect();
}

/**
 * Runs `step` again, for as long as it takes, while it fails because the brokers are away or not
 * ready; any other failure is thrown. With a logger the wait is told once at warn and its end at
 * info. A start-up step that runs beside the service's own (startKafka) passes none: the
 * service tells the wait once.
 */
export async function untilBrokersAnswer<T>(step: () => Promise<T>, logger?: Logger): Promise<T> {
  let waitingSince: number | undefined;
  for (;;) {
    try {
      const answer = await step();
      if (waitingSince !== undefined)
        logger?.info(
          { waitedSeconds: Math.round((Date.now() - waitingSince) / 1000) },
          'Kafka brokers answer; starting',
        );
      return answer;
    } catch (error) {
      const waitingFor = whatToWaitFor(error);
      if (waitingFor === undefined) throw error;
      if (waitingSince === undefined) logger?.warn({ reason: (error as Error).message }, waitingFor);
      waitingSince ??= Date.now();
      // Each try already spent the client's retries; the pause only keeps a fast failure from spinning.
      await new Promise((resolve) => setTimeout(resolve, KAFKA_RETRY.initialRetryTime));
    }
  }
}

/**
 * The log line for what start-up waits out, or undefined for an error that waiting does not cure.
 * A cluster that answers but is not ready yet (a broker electing the leaders of the partitions it
 * just loaded, a new topic not yet known to every broker) is waited for as brokers that are away
 * are, once ensureTopics' own retries have not seen it pass.
 */
function whatToWaitFor(error: unknown): string | undefined {
  if (isBrokersAwayError(error)) return 'Kafka brokers do not answer; waiting for them before serving';
  if (isTransientKafkaError(error)) return 'Kafka brokers are not ready yet; waiting for them before serving';
  return undefined;
}
