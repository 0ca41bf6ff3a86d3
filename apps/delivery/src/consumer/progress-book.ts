import { CommitPosition, CommitSource, PartitionOffset, partitionKey } from '@switchyard/kafka';
import { PartitionProgress } from './partition-progress';

interface Tracked {
  topic: string;
  partition: number;
  progress: PartitionProgress;
}

/**
 * The progress of every partition this instance reads, and the commit source built on it: a
 * partition's commit is its lowest unfinished job (see PartitionProgress).
 */
export class ProgressBook implements CommitSource {
  private readonly partitions = new Map<string, Tracked>();
  /** The progress each offered position was read from: a commit marks that one, even if a rebalance replaced it since. */
  private readonly offeredFrom = new WeakMap<CommitPosition, PartitionProgress>();

  of(topic: string, partition: number): PartitionProgress {
    const key = partitionKey({ topic, partition });
    let tracked = this.partitions.get(key);
    if (!tracked)
      this.partitions.set(key, (tracked = { topic, partition, progress: new PartitionProgress() }));
    return tracked.progress;
  }

  /**
   * After a rebalance: forgets the partitions this instance no longer owns, and returns where each
   * one it kept resumes, after the last job taken from it. Jobs still running stay tracked, so no
   * commit passes them; a new owner of a dropped partition reads from the committed offset.
   */
  keepOnly(assignment: Record<string, number[]>): PartitionOffset[] {
    const resume: PartitionOffset[] = [];
    for (const [key, { topic, partition, progress }] of this.partitions) {
      if (!assignment[topic]?.includes(partition)) this.partitions.delete(key);
      else if (progress.resumeAt !== undefined)
        resume.push({ topic, partition, offset: String(progress.resumeAt) });
    }
    return resume;
  }

  due(): CommitPosition[] {
    const due: CommitPosition[] = [];
    for (const { topic, partition, progress } of this.partitions.values()) {
      const offset = progress.commitDue();
      if (offset === undefined) continue;
      const position = { topic, partition, offset: String(offset) };
      this.offeredFrom.set(position, progress);
      due.push(position);
    }
    return due;
  }

  committed(positions: CommitPosition[]): void {
    for (const position of positions) this.offeredFrom.get(position)?.markCommitted(Number(position.offset));
  }
}
