import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { startHttpService, startWithWorkspace } from '@switchyard/service';
import { DeliverySettings } from './delivery-settings';
import { DeliveryModule } from './delivery.module';

/** Starts the delivery service; used by main.ts and by tests (port 0, a fresh topic namespace). */
export function startDelivery(settings: DeliverySettings, logger: Logger): Promise<NestFastifyApplication> {
  return startWithWorkspace(settings, logger, (workspace) =>
    startHttpService({
      module: DeliveryModule.forRoot(settings, logger, workspace),
      logger,
      port: settings.port,
      host: settings.host,
      buildCommit: settings.buildCommit,
    }),
  );
}
