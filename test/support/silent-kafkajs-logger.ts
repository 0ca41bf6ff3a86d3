/**
 * A logger in the shape kafkajs's internals take (`logger.namespace(...)` and the level methods),
 * printing nothing: for tests that drive kafkajs's own classes (its runner, consumer, fetcher)
 * without a client around them.
 */
export const silentKafkajsLogger = {
  namespace: () => silentKafkajsLogger,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};
