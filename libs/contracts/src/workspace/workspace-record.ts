/** What a workspace record holds: a source or a destination. */
export type WorkspaceKind = 'source' | 'destination';

const KINDS: readonly WorkspaceKind[] = ['source', 'destination'];

/** Key of a record on the compacted workspace topic: `<kind>:<id>`, so each resource keeps one record. */
export function workspaceRecordKey(kind: WorkspaceKind, id: string): string {
  return `${kind}:${id}`;
}

export function parseWorkspaceRecordKey(key: string): { kind: WorkspaceKind; id: string } | undefined {
  const colon = key.indexOf(':');
  const kind = key.slice(0, colon) as WorkspaceKind;
  const id = key.slice(colon + 1);
  return colon > 0 && id && KINDS.includes(kind) ? { kind, id } : undefined;
}

/**
 * Value of a workspace record (a null value is a tombstone: the resource was deleted). The
 * resource is stored in the workspace file's shape, with its secret fields sealed.
 */
export interface WorkspaceEntry {
  /** Starts at 1 and grows by one with every change; it is the resource's ETag. */
  revision: number;
  /** ISO 8601 UTC. */
  changedAt: string;
  /** The name of the token that made the change. */
  changedBy: string;
  resource: Record<string, unknown>;
}

export function encodeWorkspaceEntry(entry: WorkspaceEntry): Buffer {
  return Buffer.from(JSON.stringify(entry));
}

/** Reads a record's value; throws naming what is wrong, so the reader can skip it with a reason. */
export function decodeWorkspaceEntry(value: Buffer): WorkspaceEntry {
  const entry = JSON.parse(value.toString('utf8')) as Partial<WorkspaceEntry> | null;
  if (typeof entry !== 'object' || entry === null) throw new Error('value is not a JSON object');
  if (!Number.isSafeInteger(entry.revision) || entry.revision! < 1)
    throw new Error('revision must be a positive whole number');
  if (typeof entry.changedAt !== 'string' || typeof entry.changedBy !== 'string')
    throw new Error('changedAt and changedBy must be strings');
  if (typeof entry.resource !== 'object' || entry.resource === null || Array.isArray(entry.resource))
    throw new Error('resource must be an object');
  return entry as WorkspaceEntry;
}
