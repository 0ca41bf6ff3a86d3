import './instrument';
import 'reflect-metadata';
import { createLogger } from '@switchyard/telemetry';
import { exitOnStartupError } from '@switchyard/service';
import { routerSettingsFromEnv } from './router-settings';
import { startRouter } from './router.app';

const logger = createLogger('router', process.env.LOG_LEVEL);
Promise.resolve()
  .then(() => routerSettingsFromEnv(process.env))
  .then((settings) => startRouter(settings, logger))
  .then((app) => logger.info({ url: app.getHttpServer().address() }, 'router listening'))
  .catch(exitOnStartupError(logger));
