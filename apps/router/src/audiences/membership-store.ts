import { AudienceMembership } from './audience-membership';

/** Audience state of one input partition, by computation id. */
export type PartitionState = Map<string, AudienceMembership>;

/**
 * The audience state this instance owns, per audiences-topic partition. A partition assigned
 * by a rebalance must be restored from the changelog before its records are handled; one
 * taken away is dropped (its new owner restores it).
 */
export class MembershipStore {
  private readonly restored = new Map<number, PartitionState>();
  private assigned = new Set<number>();

  assign(partitions: number[]): void {
    this.assigned = new Set(partitions);
    for (const partition of this.restored.keys())
      if (!this.assigned.has(partition)) this.restored.delete(partition);
  }

  /** Partitions that need restoring before `partition` can be handled (it included). */
  unrestored(partition: number): number[] {
    return [...new Set([...this.assigned, partition])].filter((p) => !this.restored.has(p));
  }

  install(partition: number, state: PartitionState): void {
    this.restored.set(partition, state);
  }

  /** Drops a partition's state (a failed commit left it ahead of the changelog). */
  invalidate(partition: number): void {
    this.restored.delete(partition);
  }

  audience(partition: number, computationId: string): AudienceMembership {
    const state = this.restored.get(partition);
    if (!state) throw new Error(`audience state of partition ${partition} is not restored`);
    let audience = state.get(computationId);
    if (!audience) state.set(computationId, (audience = new AudienceMembership()));
    return audience;
  }
}
