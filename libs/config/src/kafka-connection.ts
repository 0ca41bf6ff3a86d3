import { readFileSync } from 'node:fs';
import { brokerList, KafkaConnection } from '@switchyard/kafka';
import type { KafkaClientValues } from './kafka-client-settings';
import { ConfigError } from './settings';

/** The connection the settings describe, with certificates, key and password read from their files; a file that cannot be read is a ConfigError naming its variable. */
export function kafkaConnection(s: KafkaClientValues): KafkaConnection {
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
