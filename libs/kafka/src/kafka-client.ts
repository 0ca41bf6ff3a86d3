import { Kafka, logLevel as KafkaLogLevel, SASLOptions } from 'kafkajs';
import type { ConnectionOptions } from 'node:tls';
import type { Logger } from 'pino';
import { registerZstdCodec } from './compression';
import { kafkaLogCreator } from './kafka-log';
import { kafkaPort } from './kafkajs-adapter';
import { KafkaClient } from './kafka-port';
import { noDelaySocketFactory } from './socket-factory';

/** SASL mechanisms a service can authenticate with (KAFKA_SASL_MECHANISM). */
export const KAFKA_SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

/** TLS towards the brokers; certificates and keys as PEM text, already read from their files. */
export interface KafkaTls {
  /** CA bundle that signed the brokers' certificates; unset: the system's trusted CAs. */
  ca?: string;
  /** Client certificate and key, for clusters that authenticate clients by mTLS. */
  cert?: string;
  key?: string;
  rejectUnauthorized: boolean;
}

export interface KafkaSasl {
  mechanism: KafkaSaslMechanism;
  username: string;
  password: string;
}

/** Where the brokers are and how to reach them: everything a service needs to open a connection. */
export interface KafkaConnection {
  brokers: string[];
  tls?: KafkaTls;
  sasl?: KafkaSasl;
}

/** kafkajs's 1 s connect timeout is too short for a TLS handshake on a busy host, and SASL adds round trips. */
const CONNECTION_TIMEOUT_MS = 5_000;
const AUTHENTICATION_TIMEOUT_MS = 5_000;

/**
 * Every client's retry: kafkajs doubles its wait from `initialRetryTime` after each failed try,
 * and by default up to 30 s, so a client that lost its broker could sleep half a minute past the
 * broker's return (a producer's reconnect, a consumer's restart after its last retry). Capped at
 * `maxRetryTime`, a client tries again at least once a second whatever its backoff state, and so
 * resumes within about a second of the broker answering; the retry count keeps the window
 * before a request gives up at roughly the half minute kafkajs's defaults give.
 */
export const KAFKA_RETRY = { initialRetryTime: 100, maxRetryTime: 1_000, retries: 30 } as const;

/** The TLS options every Switchyard client (kafkajs and the start-up check) uses. */
export function tlsOptions(tls: KafkaTls): ConnectionOptions {
  return { ca: tls.ca, cert: tls.cert, key: tls.key, rejectUnauthorized: tls.rejectUnauthorized };
}

function saslOptions(sasl: KafkaSasl): SASLOptions {
  // kafkajs types each mechanism as its own literal; the three share username and password.
  return { mechanism: sasl.mechanism, username: sasl.username, password: sasl.password } as SASLOptions;
}

/** A client (kafkajs behind Switchyard's port) whose logs go through the service's pino logger. */
export function createKafka(clientId: string, connection: KafkaConnection, logger: Logger): KafkaClient {
  registerZstdCodec();
  return kafkaPort(
    new Kafka({
      clientId,
      brokers: connection.brokers,
      ssl: connection.tls ? tlsOptions(connection.tls) : undefined,
      sasl: connection.sasl ? saslOptions(connection.sasl) : undefined,
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      authenticationTimeout: AUTHENTICATION_TIMEOUT_MS,
      // kafkajs logs routine rebalances at INFO; WARN keeps the log about problems.
      logLevel: KafkaLogLevel.WARN,
      logCreator: kafkaLogCreator(logger),
      retry: { ...KAFKA_RETRY },
      socketFactory: noDelaySocketFactory,
    }),
    connection.brokers.join(','),
  );
}

/** `host:port,host:port` as the list kafkajs takes. */
export function brokerList(brokers: string): string[] {
  return brokers.split(',').map((b) => b.trim());
}
