import type { WorkspaceKind } from './workspace-record';

export type WorkspaceAction = 'create' | 'update' | 'delete';

/**
 * Value of a record on the audit topic (key `<kind>:<id>`): who changed what, and how. `before`
 * and `after` hold the resource with its secrets masked; `before` is absent on create, `after`
 * on delete.
 */
export interface WorkspaceAuditRecord {
  /** ISO 8601 UTC. */
  at: string;
  /** The name of the token that made the change. */
  actor: string;
  action: WorkspaceAction;
  kind: WorkspaceKind;
  id: string;
  /** The revision the change produced (the deleted revision for a delete). */
  revision: number;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

export function encodeWorkspaceAudit(record: WorkspaceAuditRecord): Buffer {
  return Buffer.from(JSON.stringify(record));
}

export function decodeWorkspaceAudit(value: Buffer): WorkspaceAuditRecord {
  return JSON.parse(value.toString('utf8')) as WorkspaceAuditRecord;
}
