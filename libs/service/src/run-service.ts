import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { createLogger } from '@switchyard/telemetry';
import { exitOnStartupError } from './bootstrap';

/**
 * A service's whole `main`: reads its settings from the environment, starts it, and logs where it
 * listens; a bad setting or a failed start exits 1 with the reason on one line.
 */
export function runService<S>(
  name: string,
  settingsFromEnv: (env: NodeJS.ProcessEnv) => S,
  start: (settings: S, logger: Logger) => Promise<NestFastifyApplication>,
): void {
  const logger = createLogger(name, process.env.LOG_LEVEL);
  Promise.resolve()
    .then(() => settingsFromEnv(process.env))
    .then((settings) => start(settings, logger))
    .then((app) => logger.info({ url: app.getHttpServer().address() }, `${name} listening`))
    .catch(exitOnStartupError(logger));
}
