import { Kafka, ITopicConfig } from 'kafkajs';

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
  try {
    const existing = new Set(await admin.listTopics());
    const missing: ITopicConfig[] = specs
      .filter((s) => !existing.has(s.topic))
      .map((s) => ({
        topic: s.topic,
        numPartitions: s.numPartitions ?? 1,
        replicationFactor: -1,
        configEntries: Object.entries(s.configs ?? {}).map(([name, value]) => ({ name, value })),
      }));
    if (missing.length > 0) {
      try {
        await admin.createTopics({ topics: missing, waitForLeaders: true, timeout: timeoutMs });
      } catch (error) {
        // Another service may have created the same topic a moment earlier.
        if (!/already exists/i.test(String((error as Error).message)) && (error as { type?: string }).type !== 'TOPIC_ALREADY_EXISTS') throw error;
      }
    }
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { topics } = await admin.fetchTopicMetadata({ topics: specs.map((s) => s.topic) });
      if (topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
      if (Date.now() > deadline) throw new Error(`topics have no leader after ${timeoutMs} ms: ${specs.map((s) => s.topic).join(', ')}`);
      await sleep(100);
    }
  } finally {
    await admin.disconnect();
  }
}
