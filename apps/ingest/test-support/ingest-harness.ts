import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createLogger } from '@switchyard/telemetry';
import { listeningPort } from '@switchyard/service';
import { ingestSettingsFromEnv } from '../src/ingest-settings';
import { startIngest } from '../src/ingest.app';
import { testServiceEnv } from '../../../test/support/service-env';
import { WorkspaceFile } from '../../../test/support/workspace-file';

export interface RunningIngest {
  app: NestFastifyApplication;
  url: string;
  close(): Promise<void>;
}

/**
 * Starts ingest in this process on 127.0.0.1 and a free port, writing to `namespace`'s topics and
 * routing by `workspace`, written to a file that `close` removes.
 */
export async function startTestIngest(
  namespace: string,
  workspace: object,
  env: NodeJS.ProcessEnv = {},
): Promise<RunningIngest> {
  const file = new WorkspaceFile(workspace);
  try {
    const settings = ingestSettingsFromEnv({ ...testServiceEnv(namespace, file.path), ...env });
    const app = await startIngest(
      settings,
      createLogger('ingest-test', process.env.TEST_LOG_LEVEL ?? 'silent'),
    );
    return {
      app,
      url: `http://127.0.0.1:${listeningPort(app)}`,
      close: async () => (await app.close(), file.remove()),
    };
  } catch (error) {
    file.remove();
    throw error;
  }
}
