/**
 * Jobs taken from one partition and not finished, and the offset that is safe to commit: the
 * lowest unfinished one. Jobs finish in any order; the commit never passes one still running,
 * so a crash re-delivers it (and possibly some finished after it) but never skips it.
 *
 * Offsets are JS numbers: exact up to 2^53, far beyond any partition's lifetime.
 */
export class PartitionProgress {
  /** Offsets are taken in increasing order, so insertion order is offset order. */
  private readonly unfinished = new Set<number>();
  private next: number | undefined;
  private committed: number | undefined;

  get size(): number {
    return this.unfinished.size;
  }

  take(offset: number): void {
    this.unfinished.add(offset);
    this.next = offset + 1;
  }

  finish(offset: number): void {
    this.unfinished.delete(offset);
  }

  /** The offset to commit (the next record to read after a restart), when it moved since the last commit. */
  commitDue(): number | undefined {
    const safe = this.safeOffset();
    return safe !== undefined && safe !== this.committed ? safe : undefined;
  }

  markCommitted(offset: number): void {
    this.committed = offset;
  }

  private safeOffset(): number | undefined {
    for (const lowest of this.unfinished) return lowest;
    return this.next;
  }
}
