/** Injection token for the TopicNames of this deployment's namespace. */
export const TOPICS = Symbol('TOPICS');
/** Injection token for the router's pino logger. */
export const LOGGER = Symbol('LOGGER');
