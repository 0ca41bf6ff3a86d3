/**
 * The port of the broker a developer's machine runs (`npm run kafka:start`); every local default
 * derives from it. Shell scripts read this line (scripts/lib/local-kafka-port.sh): keep its shape.
 */
export const LOCAL_KAFKA_PORT = 9092;

/** KAFKA_BROKERS when unset: the local broker. */
export const LOCAL_KAFKA_BROKERS = `localhost:${LOCAL_KAFKA_PORT}`;

/**
 * The brokers tools on this machine (tests, benchmarks) use: KAFKA_BROKERS when set, else the
 * local broker on KAFKA_PORT, over IPv4 as the broker listens.
 */
export function localKafkaBrokers(env: NodeJS.ProcessEnv = process.env): string {
  return env.KAFKA_BROKERS || `127.0.0.1:${env.KAFKA_PORT || LOCAL_KAFKA_PORT}`;
}
