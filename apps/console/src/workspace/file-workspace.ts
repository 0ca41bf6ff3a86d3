import type { Workspace } from '@switchyard/config';
import type { StoredResource } from '@switchyard/workspace';
import { WorkspaceChange, WorkspaceLog, WorkspaceResources } from './workspace-admin';
import { workspaceError } from './workspace-errors';

/** A mounted file's resources as the API shows them: read live from the file, each at revision 1. */
export function fileResources(workspace: Workspace): WorkspaceResources {
  const stored = <T>(resource: T | undefined): StoredResource<T> | undefined =>
    resource && { revision: 1, changedAt: '', changedBy: 'file', resource };
  return {
    source: (id) => stored(workspace.source(id)),
    destination: (id) => stored(workspace.destination(id)),
    get config() {
      return workspace.config;
    },
  };
}

/** With a mounted file, the file is the workspace: the API reads it and refuses every change. */
export const fileWorkspaceLog: WorkspaceLog = {
  append(_change: WorkspaceChange): Promise<void> {
    throw workspaceError(
      409,
      'workspace_from_file',
      'the workspace comes from the file WORKSPACE_CONFIG names: change that file, or unset it to manage the workspace here',
    );
  },
  caughtUp: () => Promise.resolve(),
};
