/**
 * Jobs taken from one partition and not finished, and the offset that is safe to commit: the
 * lowest unfinished one. Jobs finish in any order; the commit never passes one still running,
 * so a crash re-delivers it (and possibly some finished after it) but never skips it.
 *
 * Offsets are JS numbers: exact up to 2^53, far beyond any partition's lifetime.
 */
export class PartitionProgress {
  /** Unfinished offsets and their records' bytes; offsets are taken in increasing order, so insertion order is offset order. */
  private readonly unfinished = new Map<number, number>();
  private unfinishedBytes = 0;
  private next: number | undefined;
  private committed: number | undefined;

  get size(): number {
    return this.unfinished.size;
  }

  /** The offset after the last job taken, where reading this partition goes on; none before the first. */
  get resumeAt(): number | undefined {
    return this.next;
  }

  /** Key and value bytes of the unfinished jobs' records. */
  get bytes(): number {
    return this.unfinishedBytes;
  }

  take(offset: number, bytes = 0): void {
    this.unfinished.set(offset, bytes);
    this.unfinishedBytes += bytes;
    this.next = offset + 1;
  }

  finish(offset: number): void {
    this.unfinishedBytes -= this.unfinished.get(offset) ?? 0;
    this.unfinished.delete(offset);
  }

  /**
   * Room for another job: fewer unfinished jobs than `maxJobs` and fewer bytes than `maxBytes`.
   * The byte bound keeps memory flat when events grow (large events at 1,000 jobs per partition
   * took delivery far past its memory target; docs/performance-log.md); with nothing unfinished there is always room, however large
   * the next record.
   */
  hasRoom(maxJobs: number, maxBytes: number): boolean {
    if (this.unfinished.size === 0) return true;
    return this.unfinished.size < maxJobs && this.unfinishedBytes < maxBytes;
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
    for (const lowest of this.unfinished.keys()) return lowest;
    return this.next;
  }
}
