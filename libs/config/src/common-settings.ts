import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsString, Matches, Max, Min } from 'class-validator';
import { KAFKA_COMPRESSIONS, KafkaCompression } from '@switchyard/kafka';
import { envNumber, envString } from './settings';

/** Settings every service shares. Each app extends this with its own and validates at start-up. */
export class CommonSettings {
  /** Comma-separated host:port list. */
  @IsString() @Matches(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/, { message: 'kafkaBrokers (KAFKA_BROKERS) must be a comma-separated host:port list' })
  kafkaBrokers!: string;

  @IsString() @Matches(/^[a-zA-Z0-9._-]{1,100}$/, { message: 'topicNamespace (TOPIC_NAMESPACE) may hold letters, digits, dot, dash and underscore' })
  topicNamespace!: string;

  /**
   * How long the group waits for a silent consumer before giving its partitions to another. A
   * crashed instance's partitions stay idle this long; the broker allows 6 s at least. 10 s, not
   * kafkajs's 30: kafkajs 2.2.4 has no static membership (group.instance.id), so a restarted pod
   * joins as a new member and waits out the dead one's session. Heartbeats go every tenth of it.
   */
  @Type(() => Number) @IsInt() @Min(6000) @Max(300_000)
  kafkaSessionTimeoutMs!: number;

  /**
   * Compression of the record batches this service produces. zstd by default: it cut ingest's
   * CPU per event (see the README's benchmarks). Consumers of Switchyard's topics outside it must
   * read zstd (Kafka's own clients do; kafkajs needs a codec), or set this to gzip or none.
   */
  @IsIn(KAFKA_COMPRESSIONS as unknown as string[], { message: `kafkaCompression (KAFKA_COMPRESSION) must be one of: ${KAFKA_COMPRESSIONS.join(', ')}` })
  kafkaCompression!: KafkaCompression;

  /** Partitions for topics this service creates; existing topics keep theirs. */
  @Type(() => Number) @IsInt() @Min(1) @Max(1000)
  topicPartitions!: number;

  @IsString() @IsNotEmpty({ message: 'workspaceConfigPath (WORKSPACE_CONFIG) must name the workspace configuration file' })
  workspaceConfigPath!: string;

  @Type(() => Number) @IsInt() @Min(0) @Max(65535)
  port!: number;

  @IsString() @IsIn(['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost'], { message: 'host (HOST) must be one of 127.0.0.1, 0.0.0.0, ::, ::1, localhost' })
  host!: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  logLevel!: string;

  /** The commit this build came from, for switchyard_build_info; the image sets it at build time. */
  @IsString() @Matches(/^([0-9a-f]{7,40}|unknown)$/, { message: 'buildCommit (SWITCHYARD_COMMIT) must be a git commit id (7 to 40 lowercase hex digits) or "unknown"' })
  buildCommit!: string;
}

export function commonSettingsFromEnv(env: NodeJS.ProcessEnv, defaultPort: number): Record<string, unknown> {
  return {
    kafkaBrokers: envString(env, 'KAFKA_BROKERS', 'localhost:9092'),
    topicNamespace: envString(env, 'TOPIC_NAMESPACE', 'switchyard'),
    kafkaSessionTimeoutMs: envNumber(env, 'KAFKA_SESSION_TIMEOUT_MS', 10_000),
    kafkaCompression: envString(env, 'KAFKA_COMPRESSION', 'zstd'),
    topicPartitions: envNumber(env, 'TOPIC_PARTITIONS', 6),
    workspaceConfigPath: envString(env, 'WORKSPACE_CONFIG', ''),
    port: envNumber(env, 'PORT', defaultPort),
    host: envString(env, 'HOST', '0.0.0.0'),
    logLevel: envString(env, 'LOG_LEVEL', 'info'),
    buildCommit: envString(env, 'SWITCHYARD_COMMIT', 'unknown'),
  };
}
