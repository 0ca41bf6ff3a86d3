import pino, { Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * Structured JSON logs. Secret-bearing fields are redacted wherever they appear, so a
 * configuration dump or an error that carries request headers cannot leak them.
 */
export function createLogger(service: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return rootLogger(level, { service });
}

/**
 * The one logger of a process that runs several services: each service logs through
 * `logger.child({ service })`, so every line still names its service, once.
 */
export function createSharedLogger(level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return rootLogger(level, {});
}

function rootLogger(level: string, base: Record<string, string>): Logger {
  return pino({
    level,
    base,
    redact: {
      paths: [
        'sharedSecret',
        '*.sharedSecret',
        '*.*.sharedSecret',
        'previousSecret',
        '*.previousSecret',
        '*.*.previousSecret',
        'headers.authorization',
        '*.headers.authorization',
        'writeKey',
        '*.writeKey',
        'adminToken',
        '*.adminToken',
      ],
      censor: '[redacted]',
    },
  });
}
