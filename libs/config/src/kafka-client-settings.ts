import { IsBoolean, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { KAFKA_SASL_MECHANISMS, KafkaSaslMechanism } from '@switchyard/kafka';
import { assertKafkaSettings } from './kafka-connection';
import { envBoolean, envString, validateSettings } from './settings';

/** Where the brokers are and how to authenticate to them: what every Kafka client needs, services and tools alike. */
export class KafkaClientSettings {
  /** Comma-separated host:port list. */
  @IsString()
  @Matches(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/, {
    message: 'kafkaBrokers (KAFKA_BROKERS) must be a comma-separated host:port list',
  })
  kafkaBrokers!: string;

  /** TLS to the brokers (SSL or SASL_SSL listeners). */
  @IsBoolean({ message: 'kafkaSsl (KAFKA_SSL) must be true or false' })
  kafkaSsl!: boolean;

  /** PEM bundle of the CA that signed the brokers' certificates; unset: the system's CAs. */
  @IsOptional()
  @IsString()
  kafkaSslCaFile?: string;

  /** Client certificate and key (PEM) for mTLS; both or neither. */
  @IsOptional()
  @IsString()
  kafkaSslCertFile?: string;

  @IsOptional()
  @IsString()
  kafkaSslKeyFile?: string;

  /** Refuse brokers whose certificate does not verify. Off only to diagnose, never in production. */
  @IsBoolean({ message: 'kafkaSslRejectUnauthorized (KAFKA_SSL_REJECT_UNAUTHORIZED) must be true or false' })
  kafkaSslRejectUnauthorized!: boolean;

  @IsOptional()
  @IsIn(KAFKA_SASL_MECHANISMS as unknown as string[], {
    message: `kafkaSaslMechanism (KAFKA_SASL_MECHANISM) must be one of: ${KAFKA_SASL_MECHANISMS.join(', ')}`,
  })
  kafkaSaslMechanism?: KafkaSaslMechanism;

  @IsOptional()
  @IsString()
  kafkaSaslUsername?: string;

  /** Never logged; KAFKA_SASL_PASSWORD_FILE is the way to pass it from a Kubernetes Secret. */
  @IsOptional()
  @IsString()
  kafkaSaslPassword?: string;

  @IsOptional()
  @IsString()
  kafkaSaslPasswordFile?: string;
}

export function kafkaClientSettingsEnv(env: NodeJS.ProcessEnv): Record<string, unknown> {
  return {
    kafkaBrokers: envString(env, 'KAFKA_BROKERS', 'localhost:9092'),
    kafkaSsl: envBoolean(env, 'KAFKA_SSL', false),
    kafkaSslCaFile: env.KAFKA_SSL_CA_FILE || undefined,
    kafkaSslCertFile: env.KAFKA_SSL_CERT_FILE || undefined,
    kafkaSslKeyFile: env.KAFKA_SSL_KEY_FILE || undefined,
    kafkaSslRejectUnauthorized: envBoolean(env, 'KAFKA_SSL_REJECT_UNAUTHORIZED', true),
    kafkaSaslMechanism: env.KAFKA_SASL_MECHANISM || undefined,
    kafkaSaslUsername: env.KAFKA_SASL_USERNAME || undefined,
    kafkaSaslPassword: env.KAFKA_SASL_PASSWORD || undefined,
    kafkaSaslPasswordFile: env.KAFKA_SASL_PASSWORD_FILE || undefined,
  };
}

/** The Kafka client settings alone, validated: for tools that talk to Switchyard's cluster (e.g. kafka:tail). */
export function kafkaClientSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): KafkaClientSettings {
  const settings = validateSettings(KafkaClientSettings, kafkaClientSettingsEnv(env), 'Kafka settings');
  assertKafkaSettings(settings, 'Kafka settings');
  return settings;
}
