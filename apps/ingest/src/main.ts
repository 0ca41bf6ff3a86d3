import './instrument';
import 'reflect-metadata';
import { createLogger } from '@switchyard/telemetry';
import { exitOnStartupError } from '@switchyard/service';
import { ingestSettingsFromEnv } from './ingest-settings';
import { startIngest } from './ingest.app';

const logger = createLogger('ingest', process.env.LOG_LEVEL);
Promise.resolve()
  .then(() => ingestSettingsFromEnv(process.env))
  .then((settings) => startIngest(settings, logger))
  .then((app) => logger.info({ url: app.getHttpServer().address() }, 'ingest listening'))
  .catch(exitOnStartupError(logger));
