import { hasKafkaErrorType, isTransientKafkaError } from './kafka-errors';
import { KafkaAdmin, KafkaClient, TopicCreation } from './kafka-port';

export interface TopicSpec {
  topic: string;
  numPartitions?: number;
  /** Extra topic configs, e.g. `{ 'cleanup.policy': 'compact' }`. */
  configs?: Record<string, string>;
}

/** How a service treats the topics it needs: create them with these replication settings, or only check them. */
export interface TopicPolicy {
  /** false: the service holds no create ACL; every topic must exist already with enough partitions. */
  create: boolean;
  /** Unset: the broker's `default.replication.factor`. */
  replicationFactor?: number;
  /** Unset: the broker's `min.insync.replicas`. */
  minInsyncReplicas?: number;
}

export const CREATE_WITH_BROKER_DEFAULTS: TopicPolicy = { create: true };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates the topics that do not exist yet and waits until every partition of every topic has
 * a leader. Safe to call from several services at once. Relying on broker auto-creation instead
 * gives kafkajs transient LEADER_NOT_AVAILABLE errors on KRaft.
 */
export async function ensureTopics(
  kafka: KafkaClient,
  specs: TopicSpec[],
  policy: TopicPolicy = CREATE_WITH_BROKER_DEFAULTS,
  timeoutMs = 30_000,
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  const deadline = Date.now() + timeoutMs;
  try {
    if (!policy.create) return await verifyTopics(admin, specs);
    for (;;) {
      try {
        await createMissing(admin, specs, policy, timeoutMs);
        const { topics } = await admin.fetchTopicMetadata({ topics: specs.map((s) => s.topic) });
        if (topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
      } catch (error) {
        // Services start together on a fresh broker: a topic another one just created can be
        // unknown to the broker's metadata for a moment. That passes; anything else does not.
        if (!isTransientKafkaError(error) || Date.now() > deadline) throw error;
      }
      if (Date.now() > deadline)
        throw new Error(
          `topics have no leader after ${timeoutMs} ms: ${specs.map((s) => s.topic).join(', ')}`,
        );
      await sleep(100);
    }
  } finally {
    await admin.disconnect();
  }
}

/**
 * Without the right to create topics, start-up checks what an operator created: every topic
 * exists, with at least the partitions asked for (fewer would cap the consumers' parallelism,
 * and the router's changelog must match its input). Throws naming the first problem found.
 */
async function verifyTopics(admin: KafkaAdmin, specs: TopicSpec[]): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const missing = specs.filter((s) => !existing.has(s.topic));
  if (missing.length > 0) {
    throw new Error(
      `KAFKA_CREATE_TOPICS=false and topic ${missing[0].topic} does not exist; create it with ${missing[0].numPartitions ?? 1} partitions${describeConfigs(missing[0])} (missing: ${missing.map((s) => s.topic).join(', ')})`,
    );
  }
  const { topics } = await admin.fetchTopicMetadata({ topics: specs.map((s) => s.topic) });
  const partitions = new Map(topics.map((t) => [t.name, t.partitions.length]));
  for (const spec of specs) {
    const have = partitions.get(spec.topic) ?? 0;
    if (have < (spec.numPartitions ?? 1))
      throw new Error(
        `KAFKA_CREATE_TOPICS=false and topic ${spec.topic} has ${have} partitions; it needs at least ${spec.numPartitions}`,
      );
  }
}

function describeConfigs(spec: TopicSpec): string {
  const entries = Object.entries(spec.configs ?? {});
  return entries.length === 0 ? '' : ` and ${entries.map(([k, v]) => `${k}=${v}`).join(', ')}`;
}

async function createMissing(
  admin: KafkaAdmin,
  specs: TopicSpec[],
  policy: TopicPolicy,
  timeoutMs: number,
): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const replication =
    policy.minInsyncReplicas === undefined ? {} : { 'min.insync.replicas': String(policy.minInsyncReplicas) };
  const missing: TopicCreation[] = specs
    .filter((s) => !existing.has(s.topic))
    .map((s) => ({
      topic: s.topic,
      numPartitions: s.numPartitions ?? 1,
      replicationFactor: policy.replicationFactor ?? -1,
      configEntries: Object.entries({ ...replication, ...s.configs }).map(([name, value]) => ({
        name,
        value,
      })),
    }));
  if (missing.length === 0) return;
  try {
    await admin.createTopics({ topics: missing, waitForLeaders: true, timeout: timeoutMs });
  } catch (error) {
    if (hasKafkaErrorType(error, 'INVALID_REPLICATION_FACTOR')) {
      throw new Error(
        `cannot create topics with replication factor ${policy.replicationFactor ?? "the broker's default"}: the cluster has fewer live brokers; lower KAFKA_REPLICATION_FACTOR (or the broker's default.replication.factor)`,
      );
    }
    // Another service may have created the same topic a moment earlier.
    if (
      !/already exists/i.test(String((error as Error).message)) &&
      !hasKafkaErrorType(error, 'TOPIC_ALREADY_EXISTS')
    )
      throw error;
  }
}

/**
 * Runs a start-up step again while it fails transiently. On a cluster of several brokers, one
 * broker may learn of a topic a moment after another reported its leaders, so a consumer that
 * subscribes right after ensureTopics can be told the topic is unknown; that passes.
 */
export async function retryTransient<T>(step: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await step();
    } catch (error) {
      if (!isTransientKafkaError(error) || Date.now() > deadline) throw error;
      await sleep(200);
    }
  }
}
