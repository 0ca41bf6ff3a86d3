/** Injection token for the TopicNames of this deployment's namespace. */
export const TOPICS = Symbol('TOPICS');
/** Injection token for the ingest service's pino logger. */
export const LOGGER = Symbol('LOGGER');
