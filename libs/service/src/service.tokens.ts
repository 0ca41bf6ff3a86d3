/** Injection token for the service's pino logger. */
export const LOGGER = Symbol('LOGGER');
/** Injection token for the TopicNames of this deployment's namespace. */
export const TOPICS = Symbol('TOPICS');
/** The Kafka connection the settings describe (files read once), for the client and the start-up check. */
export const KAFKA_CONNECTION = Symbol('KAFKA_CONNECTION');
/** The service's KafkaClient, from which its producers, consumers and admins are made. */
export const KAFKA_CLIENT = Symbol('KAFKA_CLIENT');
