import { KAFKA_SASL_MECHANISMS } from '@switchyard/kafka';
import { flag, oneOf, text } from './setting-kinds';
import { LOCAL_KAFKA_BROKERS } from './local-kafka';
import { loadSettings, settingsClass, SettingsOf, settingsTable } from './settings-table';

const KAFKA_CLIENT_ROWS = {
  kafkaBrokers: text({
    env: 'KAFKA_BROKERS',
    default: LOCAL_KAFKA_BROKERS,
    accepts: /^[^,\s]+:\d+(,[^,\s]+:\d+)*$/,
    rule: 'must be a comma-separated host:port list',
    description: 'Bootstrap brokers, comma-separated `host:port`.',
  }),
  kafkaSsl: flag({
    env: 'KAFKA_SSL',
    default: false,
    description: 'TLS to the brokers (`SSL` or `SASL_SSL` listeners).',
  }),
  kafkaSslCaFile: text({
    env: 'KAFKA_SSL_CA_FILE',
    default: undefined,
    description: "PEM bundle of the CA that signed the brokers' certificates; unset: the system's CAs.",
  }),
  kafkaSslCertFile: text({
    env: 'KAFKA_SSL_CERT_FILE',
    default: undefined,
    description: 'Client certificate (PEM) for mTLS; goes with `KAFKA_SSL_KEY_FILE`.',
  }),
  kafkaSslKeyFile: text({
    env: 'KAFKA_SSL_KEY_FILE',
    default: undefined,
    description: 'Client key (PEM) for mTLS; goes with `KAFKA_SSL_CERT_FILE`.',
  }),
  kafkaSslRejectUnauthorized: flag({
    env: 'KAFKA_SSL_REJECT_UNAUTHORIZED',
    default: true,
    description:
      'Refuse brokers whose certificate does not verify; `false` only to diagnose, never in production.',
  }),
  kafkaSaslMechanism: oneOf({
    env: 'KAFKA_SASL_MECHANISM',
    values: KAFKA_SASL_MECHANISMS,
    default: undefined,
    description: 'SASL mechanism; unset: no SASL. PLAIN without `KAFKA_SSL` sends the password in clear.',
  }),
  kafkaSaslUsername: text({
    env: 'KAFKA_SASL_USERNAME',
    default: undefined,
    description: 'SASL user; required with a mechanism.',
  }),
  kafkaSaslPassword: text({
    env: 'KAFKA_SASL_PASSWORD',
    default: undefined,
    secret: true,
    description:
      'SASL password; never logged. Exactly one of this and `KAFKA_SASL_PASSWORD_FILE` with a mechanism.',
  }),
  kafkaSaslPasswordFile: text({
    env: 'KAFKA_SASL_PASSWORD_FILE',
    default: undefined,
    description: 'File holding the SASL password (a mounted Secret); one trailing newline is dropped.',
  }),
};

export type KafkaClientValues = SettingsOf<typeof KAFKA_CLIENT_ROWS>;

/**
 * Rules between the Kafka connection settings, each naming the variables involved. Files are read
 * by `kafkaConnection` when the service starts (they are mounted Secrets, absent where the
 * settings are merely checked).
 */
export function kafkaClientProblems(s: KafkaClientValues): string[] {
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
  return problems;
}

/** Where the brokers are and how to authenticate to them: what every Kafka client needs, services and tools alike. */
export const KAFKA_CLIENT_SETTINGS = settingsTable({
  title: 'Kafka connection',
  summary: 'Where the brokers are and how to authenticate to them (TLS, mTLS, SASL).',
  rows: KAFKA_CLIENT_ROWS,
  checks: kafkaClientProblems,
});

/** The Kafka connection settings alone: for tools that talk to Switchyard's cluster (e.g. kafka:tail). */
export class KafkaClientSettings extends settingsClass(KAFKA_CLIENT_SETTINGS) {}

export function kafkaClientSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): KafkaClientSettings {
  return loadSettings(KafkaClientSettings, [KAFKA_CLIENT_SETTINGS], env, 'Kafka settings');
}
