import type { RetentionFamily, TopicRow } from '@switchyard/contracts';
import type { TopicPolicy, TopicSpec } from '@switchyard/kafka';
import type { CommonSettings } from './common-settings';

type TopicSettings = Pick<
  CommonSettings,
  | 'kafkaCreateTopics'
  | 'kafkaReplicationFactor'
  | 'kafkaMinInsyncReplicas'
  | 'kafkaRetentionMs'
  | 'kafkaDeadLetterRetentionMs'
  | 'kafkaAttemptsRetentionMs'
  | 'topicPartitions'
>;

/** Whether a service creates its topics, and with which replication. */
export function topicPolicy(s: TopicSettings): TopicPolicy {
  return {
    create: s.kafkaCreateTopics,
    replicationFactor: s.kafkaReplicationFactor,
    minInsyncReplicas: s.kafkaMinInsyncReplicas,
  };
}

/**
 * The topic configs of each retention family (libs/contracts' topic table says which family a
 * topic is in): retention is chosen per family, never left to the broker.
 * - stream (events, audiences, deletions, deliveries): as long as a consumer outage may last;
 * - deadLetter: long, for inspection and replay;
 * - retryTier: a job waits there until its next attempt, as late as the retry window allows, so
 *   the window plus the stream retention (the same margin for a delivery outage);
 * - changelog: the router's membership store, compacted, the latest record per member for good;
 * - attempts: the console's history of webhook requests.
 */
export function topicConfigs(
  s: TopicSettings,
  retryWindowMs = 0,
): Record<RetentionFamily, Record<string, string>> {
  const retention = (ms: number) => ({ 'cleanup.policy': 'delete', 'retention.ms': String(ms) });
  return {
    stream: retention(s.kafkaRetentionMs),
    deadLetter: retention(s.kafkaDeadLetterRetentionMs),
    retryTier: retention(retryWindowMs + s.kafkaRetentionMs),
    changelog: { 'cleanup.policy': 'compact' },
    attempts: retention(s.kafkaAttemptsRetentionMs),
  };
}

/**
 * The specs to create or check a service's topics from their table rows. `audiencesPartitions`
 * is the audiences topic's partition count, needed only for the changelog row.
 */
export function topicSpecs(
  rows: TopicRow[],
  s: TopicSettings,
  options: { retryWindowMs?: number; audiencesPartitions?: number } = {},
): TopicSpec[] {
  const configs = topicConfigs(s, options.retryWindowMs);
  const partitionsOf = (row: TopicRow) => {
    if (row.partitions === 'single') return 1;
    if (row.partitions === 'configured') return s.topicPartitions;
    if (options.audiencesPartitions === undefined)
      throw new Error(`${row.name} copies the audiences topic's partition count, which was not given`);
    return options.audiencesPartitions;
  };
  return rows.map((row) => ({
    topic: row.name,
    numPartitions: partitionsOf(row),
    configs: configs[row.retention],
  }));
}
