import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { startHttpService, startWithWorkspace } from '@switchyard/service';
import { ConsoleSettings } from './console-settings';
import { ConsoleModule } from './console.module';
import { serveManagementApiDocument } from './workspace/openapi';

/** The pages' largest form, a destination's (five URLs with three static headers each), fits easily. */
const FORM_BODY_LIMIT = 64 * 1024;

/** Starts the console; used by main.ts and by tests (port 0, a fresh topic namespace). */
export function startConsole(settings: ConsoleSettings, logger: Logger): Promise<NestFastifyApplication> {
  return startWithWorkspace(settings, logger, (workspace) =>
    startHttpService({
      module: ConsoleModule.forRoot(settings, logger, workspace),
      logger,
      port: settings.port,
      host: settings.host,
      buildCommit: settings.buildCommit,
      configure: (nest) => {
        const fastify = nest.getHttpAdapter().getInstance();
        // A merge patch is JSON; Fastify's own parser keeps its refusal of prototype keys.
        fastify.addContentTypeParser(
          'application/merge-patch+json',
          { parseAs: 'string' },
          fastify.getDefaultJsonParser('error', 'error'),
        );
        serveManagementApiDocument(nest);
        // The pages' forms post urlencoded bodies; Fastify parses only JSON by itself.
        fastify.addContentTypeParser(
          'application/x-www-form-urlencoded',
          { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
          (_request, body, done) => {
            done(null, Object.fromEntries(new URLSearchParams(String(body))));
          },
        );
      },
    }),
  );
}
