import pino, { Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * Structured JSON logs. Secret-bearing fields are redacted wherever they appear, so a
 * configuration dump or an error that carries request headers cannot leak them.
 */
export function createLogger(service: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name: service,
    level,
    base: { service },
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
