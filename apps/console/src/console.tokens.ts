export { KAFKA_CLIENT, KAFKA_CONNECTION, LOGGER, TOPICS } from '@switchyard/service';

/** The in-memory indexes (ConsoleIndexes) the feed fills and the views read. */
export const INDEXES = Symbol('INDEXES');
