/**
 * The port of the broker a developer's machine runs (`npm run kafka:start`); every local default
 * points here. Shell scripts read this line (scripts/lib/local-env.sh), so keep its shape.
 */
export const LOCAL_KAFKA_PORT = 9092;

/** The brokers a service connects to when KAFKA_BROKERS is unset: the local one. */
export const LOCAL_KAFKA_BROKERS = `localhost:${LOCAL_KAFKA_PORT}`;
