/**
 * The wire format of the compacted audience-membership changelog, the router's state store.
 * - key `<computationId>:<userId>`: one member (value MemberRecord);
 * - key `<computationId>`: the progress of a snapshot being received (value SnapshotProgress);
 * - a null value is a tombstone that deletes the key.
 * Computation ids hold no colon, so a key reads unambiguously; the encoder refuses one that does.
 */

/** One member's state: its value (true for audiences) and the sync that last confirmed it. */
export interface MemberRecord {
  value: unknown;
  syncId: string;
}

/** Pages of the snapshot being received; persisted so a restart mid-snapshot still finishes it. */
export interface SnapshotProgress {
  syncId: string;
  pages: number[];
}

/** A state change to persist in the changelog; `null` deletes (a tombstone). */
export type StateWrite =
  | { kind: 'member'; userId: string; record: MemberRecord | null }
  | { kind: 'progress'; progress: SnapshotProgress | null };

export function encodeMembershipChange(
  computationId: string,
  write: StateWrite,
): { key: string; value: Buffer | null } {
  if (computationId.includes(':'))
    throw new Error(`computation id "${computationId}" holds a colon, which changelog keys cannot carry`);
  if (write.kind === 'progress')
    return { key: computationId, value: write.progress ? Buffer.from(JSON.stringify(write.progress)) : null };
  return {
    key: `${computationId}:${write.userId}`,
    value: write.record ? Buffer.from(JSON.stringify(write.record)) : null,
  };
}

/** Reads a changelog record back; undefined when it has no key. Throws on a value that is not JSON. */
export function decodeMembershipChange(
  key: string | null,
  value: Buffer | null,
): { computationId: string; write: StateWrite } | undefined {
  if (!key) return undefined;
  const parsed = value === null ? null : (JSON.parse(value.toString('utf8')) as never);
  const colon = key.indexOf(':');
  if (colon < 0) return { computationId: key, write: { kind: 'progress', progress: parsed } };
  return {
    computationId: key.slice(0, colon),
    write: { kind: 'member', userId: key.slice(colon + 1), record: parsed },
  };
}
