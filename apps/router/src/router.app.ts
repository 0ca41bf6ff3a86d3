import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { startHttpService, startWithWorkspace } from '@switchyard/service';
import { RouterSettings } from './router-settings';
import { RouterModule } from './router.module';

/**
 * Starts the router; used by main.ts and by tests (port 0, a fresh topic namespace). Resolves
 * once every pipeline has joined its consumer group.
 */
export function startRouter(settings: RouterSettings, logger: Logger): Promise<NestFastifyApplication> {
  return startWithWorkspace(settings, logger, (workspace) =>
    startHttpService({
      module: RouterModule.forRoot(settings, logger, workspace),
      logger,
      port: settings.port,
      host: settings.host,
      buildCommit: settings.buildCommit,
    }),
  );
}
