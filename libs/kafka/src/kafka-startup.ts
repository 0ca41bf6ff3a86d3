import { checkKafkaConnection } from './connection-check';
import { KafkaConnection } from './kafka-client';
import { KafkaClient } from './kafka-port';
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
}

/**
 * Every service's start-up, in order: a connection the brokers refuse is named before anything
 * waits on it, topics exist before a producer writes or a consumer subscribes, and only then do
 * the service's clients connect.
 */
export async function startKafka({
  kafka,
  connection,
  topics,
  policy,
  connect,
}: KafkaStartup): Promise<void> {
  await checkKafkaConnection(kafka, connection);
  await ensureTopics(kafka, topics, policy);
  await connect();
}
