import './instrument';
import 'reflect-metadata';
import { createLogger } from '@switchyard/telemetry';
import { exitOnStartupError } from '@switchyard/service';
import { deliverySettingsFromEnv } from './delivery-settings';
import { startDelivery } from './delivery.app';

const logger = createLogger('delivery', process.env.LOG_LEVEL);
Promise.resolve()
  .then(() => deliverySettingsFromEnv(process.env))
  .then((settings) => startDelivery(settings, logger))
  .then((app) => logger.info({ url: app.getHttpServer().address() }, 'delivery listening'))
  .catch(exitOnStartupError(logger));
