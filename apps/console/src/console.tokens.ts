/** Injection token for the console's pino logger. */
export const LOGGER = Symbol('LOGGER');
