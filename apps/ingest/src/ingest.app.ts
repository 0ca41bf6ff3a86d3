import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { WorkspaceConfigStore } from '@switchyard/config';
import { startHttpService } from '@switchyard/service';
import { IngestSettings } from './ingest-settings';
import { IngestModule } from './ingest.module';
import { registerBodyHandling } from './tracking/body-handling';

/** Starts the ingest service; used by main.ts and by tests (which pass port 0). */
export async function startIngest(settings: IngestSettings, logger: Logger): Promise<NestFastifyApplication> {
  const workspace = new WorkspaceConfigStore(settings.workspaceConfigPath, logger);
  workspace.watch();
  const app = await startHttpService({
    module: IngestModule.forRoot(settings, logger, workspace),
    logger,
    port: settings.port,
    host: settings.host,
    fastify: { bodyLimit: settings.maxRequestBytes, routerOptions: { ignoreTrailingSlash: true } },
    errorMessages: {
      // Fastify's own wording does not say what the limit is.
      413: `request body exceeds ${settings.maxRequestBytes} bytes (counted after decompression)`,
      415: 'unsupported body: send Content-Type application/json, with Content-Encoding identity, gzip or deflate',
    },
    configure: (nest) => registerBodyHandling(nest.getHttpAdapter().getInstance()),
  });
  app.getHttpServer().once('close', () => workspace.close());
  return app;
}
