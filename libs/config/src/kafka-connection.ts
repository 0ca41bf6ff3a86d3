import { readFileSync } from 'node:fs';
import { brokerList, KafkaConnection } from '@switchyard/kafka';
import type { KafkaClientSettings } from './kafka-client-settings';
import { ConfigError } from './settings';

/** The client settings, and for services also the replication of the topics they create. */
type KafkaSettings = KafkaClientSettings & {
  kafkaReplicationFactor?: number;
  kafkaMinInsyncReplicas?: number;
};

/**
 * Rules between the Kafka settings, each problem naming the variables involved. Files are read
 * by `kafkaConnection` when the service starts (they are mounted Secrets, absent where the
 * settings are merely checked).
 */
export function kafkaSettingsProblems(s: KafkaSettings): string[] {
  const problems: string[] = [];
  const tlsFiles = [s.kafkaSslCaFile, s.kafkaSslCertFile, s.kafkaSslKeyFile].some(Boolean);
  if (tlsFiles && !s.kafkaSsl)
    problems.push('KAFKA_SSL_CA_FILE, KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE need KAFKA_SSL=true');
  if (Boolean(s.kafkaSslCertFile) !== Boolean(s.kafkaSslKeyFile))
    problems.push('KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE go together (mTLS needs both)');
  const credentials = [s.kafkaSaslUsername, s.kafkaSaslPassword, s.kafkaSaslPasswordFile].some(Boolean);
  if (!s.kafkaSaslMechanism && credentials)
    problems.push('KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD(_FILE) need KAFKA_SASL_MECHANISM');
  if (s.kafkaSaslMechanism) {
    if (!s.kafkaSaslUsername)
      problems.push(`KAFKA_SASL_MECHANISM=${s.kafkaSaslMechanism} needs KAFKA_SASL_USERNAME`);
    if (Boolean(s.kafkaSaslPassword) === Boolean(s.kafkaSaslPasswordFile))
      problems.push(
        `KAFKA_SASL_MECHANISM=${s.kafkaSaslMechanism} needs exactly one of KAFKA_SASL_PASSWORD and KAFKA_SASL_PASSWORD_FILE`,
      );
  }
  if (
    s.kafkaReplicationFactor !== undefined &&
    s.kafkaMinInsyncReplicas !== undefined &&
    s.kafkaMinInsyncReplicas > s.kafkaReplicationFactor
  ) {
    problems.push(
      'KAFKA_MIN_INSYNC_REPLICAS must not exceed KAFKA_REPLICATION_FACTOR, or no write could ever be acknowledged',
    );
  }
  return problems;
}

/** Throws ConfigError listing every broken Kafka rule; `what` names the settings, as validateSettings does. */
export function assertKafkaSettings(s: KafkaSettings, what: string): void {
  const problems = kafkaSettingsProblems(s);
  if (problems.length > 0) throw new ConfigError(`invalid ${what}:\n  - ${problems.join('\n  - ')}`);
}

/** The connection the settings describe, with certificates, key and password read from their files; a file that cannot be read is a ConfigError naming its variable. */
export function kafkaConnection(s: KafkaSettings): KafkaConnection {
  const read = (path: string | undefined, variable: string): string | undefined => {
    if (!path) return undefined;
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      throw new ConfigError(
        `${variable}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  };
  const connection: KafkaConnection = { brokers: brokerList(s.kafkaBrokers) };
  if (s.kafkaSsl) {
    connection.tls = {
      ca: read(s.kafkaSslCaFile, 'KAFKA_SSL_CA_FILE'),
      cert: read(s.kafkaSslCertFile, 'KAFKA_SSL_CERT_FILE'),
      key: read(s.kafkaSslKeyFile, 'KAFKA_SSL_KEY_FILE'),
      rejectUnauthorized: s.kafkaSslRejectUnauthorized,
    };
  }
  if (s.kafkaSaslMechanism && s.kafkaSaslUsername) {
    // A mounted Secret file usually ends with a newline that is not part of the password.
    const password =
      s.kafkaSaslPassword ??
      read(s.kafkaSaslPasswordFile, 'KAFKA_SASL_PASSWORD_FILE')?.replace(/\r?\n$/, '') ??
      '';
    connection.sasl = { mechanism: s.kafkaSaslMechanism, username: s.kafkaSaslUsername, password };
  }
  return connection;
}
