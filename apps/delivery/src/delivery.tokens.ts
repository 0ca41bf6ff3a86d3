/** Injection token for the delivery service's pino logger. */
export const LOGGER = Symbol('LOGGER');
/** Injection token for the TopicNames of this deployment's namespace. */
export const TOPICS = Symbol('TOPICS');
/** The Kafka connection the settings describe (files read once), for the client and the start-up check. */
export const KAFKA_CONNECTION = Symbol('KAFKA_CONNECTION');
/** The WebhookHttpClient every job posts through; closed once the consumer has finished its jobs. */
export const WEBHOOK_CLIENT = Symbol('WEBHOOK_CLIENT');
