/** Injection token for the TopicNames of this deployment's namespace. */
export const TOPICS = Symbol('TOPICS');
/** Injection token for the router's pino logger. */
export const LOGGER = Symbol('LOGGER');
/** The Kafka connection the settings describe (files read once), for the client and the start-up check. */
export const KAFKA_CONNECTION = Symbol('KAFKA_CONNECTION');
