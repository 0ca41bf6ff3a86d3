/** Injection token for the delivery service's pino logger. */
export const LOGGER = Symbol('LOGGER');
