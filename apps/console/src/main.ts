import './instrument';
import 'reflect-metadata';
import { createLogger } from '@switchyard/telemetry';
import { exitOnStartupError } from '@switchyard/service';
import { consoleSettingsFromEnv } from './console-settings';
import { startConsole } from './console.app';

const logger = createLogger('console', process.env.LOG_LEVEL);
Promise.resolve()
  .then(() => consoleSettingsFromEnv(process.env))
  .then((settings) => startConsole(settings, logger))
  .then((app) => logger.info({ url: app.getHttpServer().address() }, 'console listening'))
  .catch(exitOnStartupError(logger));
