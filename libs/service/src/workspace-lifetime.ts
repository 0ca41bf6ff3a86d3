import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { WorkspaceConfigStore } from '@switchyard/config';

/**
 * Starts an app with the workspace store it reads, watching the file for changes. The store
 * closes with the app's server, or at once when start-up fails, so no file watcher outlives it.
 */
export async function startWithWorkspace(
  path: string,
  logger: Logger,
  start: (workspace: WorkspaceConfigStore) => Promise<NestFastifyApplication>,
): Promise<NestFastifyApplication> {
  const workspace = new WorkspaceConfigStore(path, logger);
  workspace.watch();
  try {
    const app = await start(workspace);
    app.getHttpServer().once('close', () => workspace.close());
    return app;
  } catch (error) {
    workspace.close();
    throw error;
  }
}
