import { Admin, Kafka, ITopicConfig } from 'kafkajs';

export interface TopicSpec {
  topic: string;
  numPartitions?: number;
  /** Extra topic configs, e.g. `{ 'cleanup.policy': 'compact' }`. */
  configs?: Record<string, string>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates the topics that do not exist yet and waits until every partition of every topic has
 * a leader. Safe to call from several services at once. Relying on broker auto-creation instead
 * gives kafkajs transient LEADER_NOT_AVAILABLE errors on KRaft.
 */
export async function ensureTopics(kafka: Kafka, specs: TopicSpec[], timeoutMs = 30_000): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      try {
        await createMissing(admin, specs, timeoutMs);
        const { topics } = await admin.fetchTopicMetadata({ topics: specs.map((s) => s.topic) });
        if (topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
      } catch (error) {
        // Services start together on a fresh broker: a topic another one just created can be
        // unknown to the broker's metadata for a moment. That passes; anything else does not.
        if (!isTransient(error) || Date.now() > deadline) throw error;
      }
      if (Date.now() > deadline) throw new Error(`topics have no leader after ${timeoutMs} ms: ${specs.map((s) => s.topic).join(', ')}`);
      await sleep(100);
    }
  } finally {
    await admin.disconnect();
  }
}

async function createMissing(admin: Admin, specs: TopicSpec[], timeoutMs: number): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const missing: ITopicConfig[] = specs
    .filter((s) => !existing.has(s.topic))
    .map((s) => ({
      topic: s.topic,
      numPartitions: s.numPartitions ?? 1,
      replicationFactor: -1,
      configEntries: Object.entries(s.configs ?? {}).map(([name, value]) => ({ name, value })),
    }));
  if (missing.length === 0) return;
  try {
    await admin.createTopics({ topics: missing, waitForLeaders: true, timeout: timeoutMs });
  } catch (error) {
    // Another service may have created the same topic a moment earlier.
    if (!/already exists/i.test(String((error as Error).message)) && !hasType(error, 'TOPIC_ALREADY_EXISTS')) throw error;
  }
}

const TRANSIENT = new Set(['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE', 'NOT_LEADER_FOR_PARTITION', 'NOT_CONTROLLER', 'REQUEST_TIMED_OUT']);

function hasType(error: unknown, type: string): boolean {
  const e = error as { type?: string; originalError?: unknown; errors?: unknown[] } | undefined;
  if (!e) return false;
  return e.type === type || hasType(e.originalError, type) || (e.errors ?? []).some((inner) => hasType(inner, type));
}

function isTransient(error: unknown): boolean {
  return [...TRANSIENT].some((type) => hasType(error, type)) || (error as { retriable?: boolean }).retriable === true;
}
