import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { KAFKA_COMPRESSIONS, KafkaCompression } from '@switchyard/kafka';
import { KafkaClientSettings, kafkaClientSettingsEnv } from './kafka-client-settings';
import { envBoolean, envNumber, envString } from './settings';

const DAY = 24 * 60 * 60 * 1000;

/** Settings every service shares. Each app extends this with its own and validates at start-up. */
export class CommonSettings extends KafkaClientSettings {
  @IsString()
  @Matches(/^[a-zA-Z0-9._-]{1,100}$/, {
    message: 'topicNamespace (TOPIC_NAMESPACE) may hold letters, digits, dot, dash and underscore',
  })
  topicNamespace!: string;

  /**
   * How long the group waits for a silent consumer before giving its partitions to another. A
   * crashed instance's partitions stay idle this long; the broker allows 6 s at least. 10 s, not
   * kafkajs's 30: kafkajs 2.2.4 has no static membership (group.instance.id), so a restarted pod
   * joins as a new member and waits out the dead one's session. Heartbeats go every tenth of it.
   */
  @Type(() => Number)
  @IsInt()
  @Min(6000)
  @Max(300_000)
  kafkaSessionTimeoutMs!: number;

  /**
   * Compression of the record batches this service produces. zstd by default: it cut ingest's
   * CPU per event (docs/performance-log.md). Consumers of Switchyard's topics outside it must
   * read zstd (Kafka's own clients do; kafkajs needs a codec), or set this to gzip or none.
   */
  @IsIn(KAFKA_COMPRESSIONS as unknown as string[], {
    message: `kafkaCompression (KAFKA_COMPRESSION) must be one of: ${KAFKA_COMPRESSIONS.join(', ')}`,
  })
  kafkaCompression!: KafkaCompression;

  /** Partitions for topics this service creates; existing topics keep theirs. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  topicPartitions!: number;

  @IsString()
  @IsNotEmpty({
    message: 'workspaceConfigPath (WORKSPACE_CONFIG) must name the workspace configuration file',
  })
  workspaceConfigPath!: string;

  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  port!: number;

  @IsString()
  @IsIn(['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost'], {
    message: 'host (HOST) must be one of 127.0.0.1, 0.0.0.0, ::, ::1, localhost',
  })
  host!: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  logLevel!: string;

  /** The commit this build came from, for switchyard_build_info; the image sets it at build time. */
  @IsString()
  @Matches(/^([0-9a-f]{7,40}|unknown)$/, {
    message:
      'buildCommit (SWITCHYARD_COMMIT) must be a git commit id (7 to 40 lowercase hex digits) or "unknown"',
  })
  buildCommit!: string;

  /** Replicas of each topic this service creates; unset: the broker's `default.replication.factor`. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(32)
  kafkaReplicationFactor?: number;

  /** `min.insync.replicas` of each topic this service creates; unset: the broker's default. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(32)
  kafkaMinInsyncReplicas?: number;

  /** `retention.ms` of the event, audience, deletion and delivery topics: how long an outage of a consumer may last without loss. */
  @Type(() => Number)
  @IsInt()
  @Min(60 * 60 * 1000)
  @Max(3650 * DAY)
  kafkaRetentionMs!: number;

  /** `retention.ms` of the dead-letter topics: how long dead letters can be inspected and replayed. */
  @Type(() => Number)
  @IsInt()
  @Min(DAY)
  @Max(3650 * DAY)
  kafkaDeadLetterRetentionMs!: number;

  /** `retention.ms` of the delivery-attempts topic (the console's history of every webhook request). */
  @Type(() => Number)
  @IsInt()
  @Min(60 * 60 * 1000)
  @Max(3650 * DAY)
  kafkaAttemptsRetentionMs!: number;

  /** false: never create topics (no create ACL); start-up checks they exist with enough partitions instead. */
  @IsBoolean({ message: 'kafkaCreateTopics (KAFKA_CREATE_TOPICS) must be true or false' })
  kafkaCreateTopics!: boolean;
}

export function commonSettingsFromEnv(env: NodeJS.ProcessEnv, defaultPort: number): Record<string, unknown> {
  return {
    ...kafkaClientSettingsEnv(env),
    topicNamespace: envString(env, 'TOPIC_NAMESPACE', 'switchyard'),
    kafkaSessionTimeoutMs: envNumber(env, 'KAFKA_SESSION_TIMEOUT_MS', 10_000),
    kafkaCompression: envString(env, 'KAFKA_COMPRESSION', 'zstd'),
    topicPartitions: envNumber(env, 'TOPIC_PARTITIONS', 6),
    workspaceConfigPath: envString(env, 'WORKSPACE_CONFIG', ''),
    port: envNumber(env, 'PORT', defaultPort),
    host: envString(env, 'HOST', '0.0.0.0'),
    logLevel: envString(env, 'LOG_LEVEL', 'info'),
    buildCommit: envString(env, 'SWITCHYARD_COMMIT', 'unknown'),
    kafkaReplicationFactor: env.KAFKA_REPLICATION_FACTOR
      ? envNumber(env, 'KAFKA_REPLICATION_FACTOR', 0)
      : undefined,
    kafkaMinInsyncReplicas: env.KAFKA_MIN_INSYNC_REPLICAS
      ? envNumber(env, 'KAFKA_MIN_INSYNC_REPLICAS', 0)
      : undefined,
    kafkaRetentionMs: envNumber(env, 'KAFKA_RETENTION_MS', 7 * DAY),
    kafkaDeadLetterRetentionMs: envNumber(env, 'KAFKA_DEAD_LETTER_RETENTION_MS', 30 * DAY),
    kafkaAttemptsRetentionMs: envNumber(env, 'KAFKA_ATTEMPTS_RETENTION_MS', 7 * DAY),
    kafkaCreateTopics: envBoolean(env, 'KAFKA_CREATE_TOPICS', true),
  };
}
