export { KAFKA_CLIENT, KAFKA_CONNECTION, LOGGER, TOPICS } from '@switchyard/service';
