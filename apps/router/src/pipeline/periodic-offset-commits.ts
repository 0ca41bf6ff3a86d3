import type { Consumer } from 'kafkajs';
import type { Logger } from 'pino';

/** The input position to commit: the offset after the last record handled. */
export interface InputPosition {
  topic: string;
  partition: number;
  nextOffset: string;
}

/**
 * Input offsets whose outputs are already acknowledged, committed together on an interval.
 *
 * One OffsetCommit request per partition batch was a large share of the router's and the
 * broker's work (each is a socket write and a replicated write to `__consumer_offsets`). Committing
 * later is safe in at-least-once mode: a crash can only replay more, never skip, because a
 * position is marked only after its outputs are acknowledged. `stop` commits what is pending, so a
 * graceful restart replays nothing.
 */
export class PeriodicOffsetCommits {
  private pending = new Map<string, InputPosition>();
  private timer: NodeJS.Timeout | undefined;
  private committing: Promise<void> = Promise.resolve();

  constructor(
    private readonly consumer: Pick<Consumer, 'commitOffsets'>,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    // The timer alone must not keep a process alive that is otherwise done.
    this.timer.unref();
  }

  /** `position`'s outputs are acknowledged: commit it with the next flush. */
  mark(position: InputPosition): void {
    this.pending.set(keyOf(position), position);
  }

  /**
   * After a rebalance: positions of partitions this instance no longer owns are dropped, so a
   * late commit cannot rewind the new owner (it reads from the last committed offset anyway).
   */
  keepOnly(assignment: Record<string, number[]>): void {
    for (const [key, position] of this.pending) {
      if (!assignment[position.topic]?.includes(position.partition)) this.pending.delete(key);
    }
  }

  /** Commits every pending position; one request at a time, and a failed one is tried again with the next. */
  flush(): Promise<void> {
    this.committing = this.committing.then(async () => {
      if (this.pending.size === 0) return;
      const due = [...this.pending.values()];
      this.pending.clear();
      try {
        await this.consumer.commitOffsets(due.map(({ topic, partition, nextOffset }) => ({ topic, partition, offset: nextOffset })));
      } catch (error) {
        // Put back unless a later position of the same partition arrived meanwhile.
        for (const position of due) if (!this.pending.has(keyOf(position))) this.pending.set(keyOf(position), position);
        this.logger.warn({ reason: (error as Error).message }, 'offset commit failed; will try again');
      }
    });
    return this.committing;
  }

  /** Stops the timer and commits what is pending. */
  stop(): Promise<void> {
    clearInterval(this.timer);
    return this.flush();
  }
}

function keyOf({ topic, partition }: InputPosition): string {
  return `${topic}:${partition}`;
}
