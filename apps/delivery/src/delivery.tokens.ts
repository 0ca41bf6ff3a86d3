export { KAFKA_CLIENT, KAFKA_CONNECTION, LOGGER, TOPICS } from '@switchyard/service';

/** The WebhookHttpClient every job posts through; closed once the consumer has finished its jobs. */
export const WEBHOOK_CLIENT = Symbol('WEBHOOK_CLIENT');
