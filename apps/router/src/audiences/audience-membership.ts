import { isDeepStrictEqual } from 'node:util';
import { MemberRecord, SnapshotProgress, StateWrite } from '@switchyard/contracts';

/** A membership change to tell the destinations about. */
export interface MembershipChange {
  userId: string;
  value: unknown;
}

export interface SyncOutcome {
  changes: MembershipChange[];
  writes: StateWrite[];
  /** Something the operator should know (a snapshot finished with pages missing). */
  warning?: string;
}

export interface IncomingMember {
  userId: string;
  value: unknown;
}

/**
 * The members of one audience (or the holders of one computed trait) and the diff rules:
 * a member is announced when it enters or its value changes, and again (with `exitValue`)
 * when it leaves. Applying the same page twice announces nothing new, which is what makes a
 * replay after a crash harmless. In memory; the changelog topic is its durable copy.
 */
export class AudienceMembership {
  private readonly members = new Map<string, MemberRecord>();
  private progress: SnapshotProgress | undefined;

  get size(): number {
    return this.members.size;
  }

  /** Rebuilds state from one changelog record. */
  restore(write: StateWrite): void {
    if (write.kind === 'progress') this.progress = write.progress ?? undefined;
    else if (write.record) this.members.set(write.userId, write.record);
    else this.members.delete(write.userId);
  }

  /**
   * One page of a full snapshot. Every member in it is confirmed by `syncId`; on the final page,
   * members no snapshot page confirmed leave, but only when every page 1..final was applied
   * (a snapshot with a gap removes no one, it would remove members of the missing page).
   */
  applySnapshotPage(
    syncId: string,
    page: number,
    final: boolean,
    members: IncomingMember[],
    exitValue: unknown,
  ): SyncOutcome {
    const outcome: SyncOutcome = { changes: [], writes: [] };
    if (this.progress?.syncId !== syncId) this.progress = { syncId, pages: [] };
    for (const member of members) this.enter(member, syncId, outcome);
    if (!this.progress.pages.includes(page))
      this.progress = { syncId, pages: [...this.progress.pages, page] };
    if (!final) {
      this.record({ kind: 'progress', progress: this.progress }, outcome);
      return outcome;
    }
    const missing = Array.from({ length: page }, (_, i) => i + 1).filter(
      (p) => !this.progress!.pages.includes(p),
    );
    if (missing.length > 0) {
      outcome.warning = `snapshot ${syncId} ended at page ${page} without pages ${missing.join(', ')}: nobody was removed`;
    } else {
      for (const [userId, current] of [...this.members]) {
        if (current.syncId !== syncId) this.leave(userId, exitValue, outcome);
      }
    }
    this.record({ kind: 'progress', progress: null }, outcome);
    return outcome;
  }

  /** Explicit changes: `added` enter (or change value), `removed` leave. */
  applyDelta(syncId: string, added: IncomingMember[], removed: string[], exitValue: unknown): SyncOutcome {
    const outcome: SyncOutcome = { changes: [], writes: [] };
    for (const member of added) this.enter(member, syncId, outcome);
    for (const userId of removed) {
      if (this.members.has(userId)) this.leave(userId, exitValue, outcome);
    }
    return outcome;
  }

  private enter({ userId, value }: IncomingMember, syncId: string, outcome: SyncOutcome): void {
    const current = this.members.get(userId);
    const changed = current === undefined || !isDeepStrictEqual(current.value, value);
    if (changed) outcome.changes.push({ userId, value });
    if (changed || current.syncId !== syncId)
      this.record({ kind: 'member', userId, record: { value, syncId } }, outcome);
  }

  private leave(userId: string, exitValue: unknown, outcome: SyncOutcome): void {
    outcome.changes.push({ userId, value: exitValue });
    this.record({ kind: 'member', userId, record: null }, outcome);
  }

  private record(write: StateWrite, outcome: SyncOutcome): void {
    this.restore(write);
    outcome.writes.push(write);
  }
}
