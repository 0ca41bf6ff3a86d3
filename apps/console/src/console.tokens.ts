/** Injection token for the console's pino logger. */
export const LOGGER = Symbol('LOGGER');
/** Injection token for the TopicNames of this deployment's namespace. */
export const TOPICS = Symbol('TOPICS');
/** The Kafka connection the settings describe (files read once), for the client and the start-up check. */
export const KAFKA_CONNECTION = Symbol('KAFKA_CONNECTION');
/** The in-memory indexes (ConsoleIndexes) the feed fills and the views read. */
export const INDEXES = Symbol('INDEXES');
