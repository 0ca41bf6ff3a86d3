import type { TopicPolicy } from '@switchyard/kafka';
import type { CommonSettings } from './common-settings';

type TopicSettings = Pick<CommonSettings, 'kafkaCreateTopics' | 'kafkaReplicationFactor' | 'kafkaMinInsyncReplicas' | 'kafkaRetentionMs' | 'kafkaDeadLetterRetentionMs'>;

/** Whether a service creates its topics, and with which replication. */
export function topicPolicy(s: TopicSettings): TopicPolicy {
  return { create: s.kafkaCreateTopics, replicationFactor: s.kafkaReplicationFactor, minInsyncReplicas: s.kafkaMinInsyncReplicas };
}

/** The topic configs of each family of topics: retention is chosen per family, never left to the broker. */
export interface TopicFamilies {
  /** Events, audiences, deletions, deliveries: kept as long as a consumer outage may last. */
  stream: Record<string, string>;
  /** Dead letters: kept long, for inspection and replay. */
  deadLetter: Record<string, string>;
  /**
   * A retry tier holds a job until its next attempt, which may come as late as the retry window
   * allows; it keeps records for that window plus the stream retention, the same margin for a
   * delivery outage as every other topic gets.
   */
  retryTier(retryWindowMs: number): Record<string, string>;
  /** The router's membership changelog: compacted, the latest record per member kept for good. */
  changelog: Record<string, string>;
}

export function topicFamilies(s: TopicSettings): TopicFamilies {
  const retention = (ms: number) => ({ 'cleanup.policy': 'delete', 'retention.ms': String(ms) });
  return {
    stream: retention(s.kafkaRetentionMs),
    deadLetter: retention(s.kafkaDeadLetterRetentionMs),
    retryTier: (retryWindowMs) => retention(retryWindowMs + s.kafkaRetentionMs),
    changelog: { 'cleanup.policy': 'compact' },
  };
}
