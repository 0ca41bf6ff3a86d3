import type { RetentionFamily, TopicRow } from '@switchyard/contracts';
import type { TopicPolicy, TopicSpec } from '@switchyard/kafka';
import { MAX_DESTINATION_RETRY_WINDOW_MS } from './destination-delivery-policy';
import { flag, integer, text } from './setting-kinds';
import { SettingsOf, settingsTable } from './settings-table';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** The topics a service creates or checks at start-up: names, partitions, replication and retention. */
export const TOPIC_SETTINGS = settingsTable({
  title: 'Topics',
  summary: 'The topics a service creates (or checks) at start-up: names, partitions, replication, retention.',
  rows: {
    topicNamespace: text({
      env: 'TOPIC_NAMESPACE',
      default: 'switchyard',
      accepts: /^[a-zA-Z0-9._-]{1,100}$/,
      rule: 'may hold letters, digits, dot, dash and underscore (1-100)',
      description: 'Prefix of every topic name and consumer group.',
    }),
    topicPartitions: integer({
      env: 'TOPIC_PARTITIONS',
      default: 6,
      min: 1,
      max: 1000,
      description:
        'Partitions of the topics a service creates (the most useful replicas of router and delivery); existing topics keep theirs.',
    }),
    kafkaCreateTopics: flag({
      env: 'KAFKA_CREATE_TOPICS',
      default: true,
      description:
        '`false`: never create topics (no create ACL); start-up checks each exists with enough partitions and names the one missing.',
    }),
    kafkaReplicationFactor: integer({
      env: 'KAFKA_REPLICATION_FACTOR',
      default: undefined,
      min: 1,
      max: 32,
      description:
        "Replicas of each topic a service creates; unset: the broker's `default.replication.factor`.",
    }),
    kafkaMinInsyncReplicas: integer({
      env: 'KAFKA_MIN_INSYNC_REPLICAS',
      default: undefined,
      min: 1,
      max: 32,
      description: "`min.insync.replicas` of each topic a service creates; unset: the broker's default.",
    }),
    kafkaRetentionMs: integer({
      env: 'KAFKA_RETENTION_MS',
      default: 7 * DAY,
      min: HOUR,
      max: 3650 * DAY,
      description:
        '`retention.ms` of the event, audience, deletion and delivery topics: how long a consumer outage may last without loss. Retry tiers keep the longest retry window allowed (`DELIVERY_RETRY_WINDOW_MS`, or 72 h if longer) plus this.',
    }),
    kafkaDeadLetterRetentionMs: integer({
      env: 'KAFKA_DEAD_LETTER_RETENTION_MS',
      default: 30 * DAY,
      min: DAY,
      max: 3650 * DAY,
      description:
        '`retention.ms` of the dead-letter topics: how long dead letters can be inspected and replayed.',
    }),
    kafkaAttemptsRetentionMs: integer({
      env: 'KAFKA_ATTEMPTS_RETENTION_MS',
      default: 7 * DAY,
      min: HOUR,
      max: 3650 * DAY,
      description:
        "`retention.ms` of the delivery-attempts topic (the console's history of webhook requests).",
    }),
    kafkaAuditRetentionMs: integer({
      env: 'KAFKA_AUDIT_RETENTION_MS',
      default: 400 * DAY,
      min: DAY,
      max: 3650 * DAY,
      description:
        '`retention.ms` of the workspace audit topic: how far back the record of setup changes goes.',
    }),
  },
  checks: (s) =>
    s.kafkaReplicationFactor !== undefined &&
    s.kafkaMinInsyncReplicas !== undefined &&
    s.kafkaMinInsyncReplicas > s.kafkaReplicationFactor
      ? [
          'KAFKA_MIN_INSYNC_REPLICAS must not exceed KAFKA_REPLICATION_FACTOR, or no write could ever be acknowledged',
        ]
      : [],
});

/** What topic specs are made of: everything in the table but the names' namespace. */
export type TopicSettings = Omit<SettingsOf<typeof TOPIC_SETTINGS.rows>, 'topicNamespace'>;

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
 * - retryTier: a job waits there until its next attempt, as late as its retry window allows, so
 *   the longest window any job can have plus the stream retention (the same margin for a delivery
 *   outage). A destination may set its window up to 72 h at any moment through the API; sizing
 *   for that bound, rather than for the windows in use today, keeps a window raised later from
 *   outliving the records already waiting, and needs no alter-configs right or topic rewrites;
 * - changelog: compacted, the latest record per key for good (the router's membership store, the workspace);
 * - attempts: the console's history of webhook requests;
 * - audit: the record of workspace changes, kept long.
 */
export function topicConfigs(
  s: TopicSettings,
  retryWindowMs = 0,
): Record<RetentionFamily, Record<string, string>> {
  const retention = (ms: number) => ({ 'cleanup.policy': 'delete', 'retention.ms': String(ms) });
  return {
    stream: retention(s.kafkaRetentionMs),
    deadLetter: retention(s.kafkaDeadLetterRetentionMs),
    retryTier: retention(Math.max(retryWindowMs, MAX_DESTINATION_RETRY_WINDOW_MS) + s.kafkaRetentionMs),
    changelog: { 'cleanup.policy': 'compact' },
    attempts: retention(s.kafkaAttemptsRetentionMs),
    audit: retention(s.kafkaAuditRetentionMs),
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
