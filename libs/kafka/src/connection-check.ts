import { connect as tlsConnect } from 'node:tls';
import { KafkaConnection, KafkaTls, tlsOptions } from './kafka-client';
import { KafkaClient } from './kafka-port';

/** A broker could be reached but not used as configured; the message names the cause and the setting to fix. */
export class KafkaConnectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KafkaConnectionError';
  }
}

const HANDSHAKE_TIMEOUT_MS = 10_000;

// Node's codes for a certificate chain that does not lead to a trusted CA.
const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

/**
 * Checks at start-up that the brokers accept this service as configured, before kafkajs would
 * retry a hopeless connection for half a minute: the TLS handshake with every bootstrap broker (an
 * untrusted or mismatched certificate is named, with the setting to fix), then SASL
 * authentication. A broker that is simply not up yet is left to kafkajs's own retries.
 */
export async function checkKafkaConnection(kafka: KafkaClient, connection: KafkaConnection): Promise<void> {
  const { tls } = connection;
  if (tls) await Promise.all(connection.brokers.map((broker) => checkTls(broker, tls)));
  const admin = kafka.admin();
  try {
    await admin.connect();
    // Connecting alone asks only for API versions, which a SASL listener answers before authentication.
    await admin.describeCluster();
  } catch (error) {
    throw explainConnectFailure(error as Error, connection);
  } finally {
    await admin.disconnect();
  }
}

function checkTls(broker: string, tls: KafkaTls): Promise<void> {
  const separator = broker.lastIndexOf(':');
  const host = broker.slice(0, separator);
  const port = Number(broker.slice(separator + 1));
  return new Promise((resolve, reject) => {
    const socket = tlsConnect(
      {
        host,
        port,
        ...(isIp(host) ? {} : { servername: host }),
        ...tlsOptions(tls),
        timeout: HANDSHAKE_TIMEOUT_MS,
      },
      () => {
        socket.end();
        resolve();
      },
    );
    socket.once('timeout', () => {
      socket.destroy();
      resolve(); // slow, not wrong: kafkajs's own connect decides
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      socket.destroy();
      const problem = describeTlsFailure(broker, error);
      if (problem) reject(new KafkaConnectionError(problem));
      else resolve();
    });
  });
}

/** Words for a handshake failure that settings can fix; undefined for a broker that is merely unreachable. */
export function describeTlsFailure(broker: string, error: NodeJS.ErrnoException): string | undefined {
  const code = error.code ?? '';
  if (UNTRUSTED.has(code)) {
    return `Kafka TLS: the certificate of broker ${broker} is not trusted (${code}: ${error.message}); set KAFKA_SSL_CA_FILE to the CA that signed it`;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return `Kafka TLS: the certificate of broker ${broker} does not name that host (${error.message}); connect with a name the certificate lists in KAFKA_BROKERS`;
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
    return `Kafka TLS: the certificate of broker ${broker} is not valid now (${code})`;
  if (code.startsWith('ERR_SSL_') || code === 'EPROTO') {
    return `Kafka TLS: the handshake with broker ${broker} failed (${code}: ${error.message}); does that port serve TLS (KAFKA_SSL, KAFKA_BROKERS), and does the broker accept the client certificate (KAFKA_SSL_CERT_FILE)?`;
  }
  return undefined;
}

/** Words for a failure to connect and authenticate that settings can fix; other errors pass unchanged. */
export function explainConnectFailure(error: Error, connection: KafkaConnection): Error {
  if (error.name === 'KafkaJSSASLAuthenticationError') {
    const { sasl } = connection;
    const who = sasl ? `user "${sasl.username}" with ${sasl.mechanism}` : 'this client';
    return new KafkaConnectionError(
      `Kafka SASL authentication failed for ${who}: ${error.message}; check KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD (or KAFKA_SASL_PASSWORD_FILE)`,
    );
  }
  if (/alert (bad certificate|certificate required|unknown ca)/i.test(error.message)) {
    const sent = connection.tls?.cert
      ? 'the client certificate of KAFKA_SSL_CERT_FILE'
      : 'no client certificate';
    return new KafkaConnectionError(
      `Kafka refused ${sent} (${error.message}); this listener wants mTLS: set KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE to a certificate its CA signed`,
    );
  }
  if (/closed connection/i.test(error.message)) {
    return new KafkaConnectionError(
      `Kafka closed the connection (${error.message}): does the listener at ${connection.brokers.join(', ')} speak ${securityProtocol(connection)}, as KAFKA_SSL and KAFKA_SASL_MECHANISM say? A SASL_SSL listener closes plain connections and unauthenticated requests`,
    );
  }
  return error;
}

/** Kafka's name for what this client speaks, as a broker's listener map spells it. */
function securityProtocol({ tls, sasl }: KafkaConnection): string {
  return `${sasl ? 'SASL_' : ''}${tls ? 'SSL' : 'PLAINTEXT'}`;
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}
