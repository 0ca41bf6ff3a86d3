import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { WorkspaceConfigStore } from '@switchyard/config';
import { startHttpService } from '@switchyard/service';
import { DeliverySettings } from './delivery-settings';
import { DeliveryModule } from './delivery.module';

/** Starts the delivery service; used by main.ts and by tests (port 0, a fresh topic namespace). */
export async function startDelivery(
  settings: DeliverySettings,
  logger: Logger,
): Promise<NestFastifyApplication> {
  const workspace = new WorkspaceConfigStore(settings.workspaceConfigPath, logger);
  workspace.watch();
  try {
    const app = await startHttpService({
      module: DeliveryModule.forRoot(settings, logger, workspace),
      logger,
      port: settings.port,
      host: settings.host,
      buildCommit: settings.buildCommit,
    });
    app.getHttpServer().once('close', () => workspace.close());
    return app;
  } catch (error) {
    workspace.close();
    throw error;
  }
}
