import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { Workspace, WorkspaceConfigStore } from '@switchyard/config';
import { SecretCipher, WorkspaceState, WorkspaceTopic } from '@switchyard/workspace';

/** What decides where a service's workspace comes from. */
export interface WorkspaceSettings {
  /** Set: a mounted file. Unset: the workspace topic. */
  workspaceConfigPath?: string;
  workspaceEncryptionKeys?: string;
}

/**
 * The workspace a service routes by: the mounted file WORKSPACE_CONFIG names (watched for
 * edits), or else the workspace topic, which the service's WorkspaceFollower reads before it
 * serves. Without encryption keys a topic-backed workspace still serves every resource that
 * holds no secret.
 */
export function openWorkspace(settings: WorkspaceSettings, logger: Logger): Workspace {
  if (settings.workspaceConfigPath) {
    const store = new WorkspaceConfigStore(settings.workspaceConfigPath, logger);
    store.watch();
    return store;
  }
  const cipher = settings.workspaceEncryptionKeys
    ? SecretCipher.fromSetting(settings.workspaceEncryptionKeys)
    : undefined;
  return new WorkspaceTopic(new WorkspaceState(cipher), logger);
}

/**
 * Starts an app with the workspace it reads. The workspace closes with the app's server, or at
 * once when start-up fails, so no file watcher or reader outlives it.
 */
export async function startWithWorkspace(
  settings: WorkspaceSettings,
  logger: Logger,
  start: (workspace: Workspace) => Promise<NestFastifyApplication>,
): Promise<NestFastifyApplication> {
  const workspace = openWorkspace(settings, logger);
  try {
    const app = await start(workspace);
    app.getHttpServer().once('close', () => workspace.close());
    return app;
  } catch (error) {
    workspace.close();
    throw error;
  }
}
