import { KafkaConsumer, RecordBatch } from './kafka-port';
import { recordsFrom } from './record-batch';
import type { Logger } from 'pino';

/** A partition's commit: the offset of the next record to read after a restart. */
export interface CommitPosition {
  topic: string;
  partition: number;
  offset: string;
}

/** What a consumer has finished: the positions now safe to commit, told when the broker took them. */
export interface CommitSource {
  due(): CommitPosition[];
  committed(positions: CommitPosition[]): void;
}

/** Runs `fn` after `ms` and returns a function that cancels it (delivery's Clock fits). */
export interface CommitTimer {
  schedule(ms: number, fn: () => void): () => void;
}

/** Timers that do not keep a process alive by themselves. */
export const unrefTimer: CommitTimer = {
  schedule: (ms, fn) => {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/**
 * Commits a consumer's finished positions on an interval instead of per batch: one OffsetCommit
 * request per batch was a large share of a consumer's and the broker's work. The interval runs only
 * while something waits to be committed: `commitSoon` starts it when a position finishes, so an
 * idle consumer sets no timer. Commits run one at a time; a failed one is logged (at warn the first
 * of a run of failures) and its positions, not marked committed, are tried again an interval
 * later. `stop` commits what is due once more, so a graceful stop replays nothing.
 */
export class OffsetCommitter {
  private cancelTimer: (() => void) | undefined;
  private committing: Promise<void> = Promise.resolve();
  private stopped = false;
  private failedInARow = 0;

  constructor(
    private readonly consumer: Pick<KafkaConsumer, 'commitOffsets'>,
    private readonly source: CommitSource,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly timer: CommitTimer = unrefTimer,
  ) {}

  /** Commits, an interval from now, whatever finished before it. */
  start(): void {
    this.stopped = false;
    this.commitSoon();
  }

  /** A position finished: it is committed within an interval. */
  commitSoon(): void {
    if (this.stopped || this.cancelTimer !== undefined) return;
    this.cancelTimer = this.timer.schedule(this.intervalMs, () => {
      this.cancelTimer = undefined;
      void this.flush().finally(() => {
        if (this.failedInARow > 0) this.commitSoon();
      });
    });
  }

  /** Commits every due position in one request, after any commit still running. */
  flush(): Promise<void> {
    this.committing = this.committing.then(async () => {
      const due = this.source.due();
      if (due.length === 0) return;
      try {
        await this.consumer.commitOffsets(due);
        this.source.committed(due);
        if (this.failedInARow > 0)
          this.logger.info({ failedInARow: this.failedInARow }, 'offset commits made again');
        this.failedInARow = 0;
      } catch (error) {
        // Through an outage a commit fails at every interval: the first says so, the rest are detail.
        this.logger[this.failedInARow === 0 ? 'warn' : 'debug'](
          { reason: (error as Error).message },
          'offset commit failed; will try again',
        );
        this.failedInARow++;
      }
    });
    return this.committing;
  }

  /** Stops the interval and commits what is due. */
  stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    return this.flush();
  }
}

/**
 * Positions marked as finished, latest per partition: the source for a consumer whose whole
 * batch is done when it marks it (the router, once a batch's outputs are acknowledged).
 */
export class MarkedPositions implements CommitSource {
  private readonly pending = new Map<string, CommitPosition>();
  /** The latest position marked per partition, kept after it is committed. */
  private readonly finished = new Map<string, CommitPosition>();

  /** `onMark` hears of every position marked (an OffsetCommitter's `commitSoon`). */
  constructor(private readonly onMark: () => void = () => undefined) {}

  mark(position: CommitPosition): void {
    const key = partitionKey(position);
    this.pending.set(key, position);
    this.finished.set(key, position);
    this.onMark();
  }

  /**
   * After a rebalance: positions of partitions this instance no longer owns are dropped, so a
   * late commit cannot rewind the new owner. Returns the positions kept: finished but not yet
   * committed, so the consumer can resume there instead of reading them again from the committed
   * offset (which a group without a coordinator for a while may not have moved for seconds).
   */
  keepOnly(assignment: Record<string, number[]>): CommitPosition[] {
    for (const positions of [this.pending, this.finished]) {
      for (const [key, position] of positions) {
        if (!assignment[position.topic]?.includes(position.partition)) positions.delete(key);
      }
    }
    return this.due();
  }

  /**
   * The batch without the records this instance finished. A batch taken before a rejoin may finish
   * after the new generation has sought to what was finished before it, and that generation's
   * fetch then brings its records again.
   */
  unfinished(batch: RecordBatch): RecordBatch {
    const finished = this.finished.get(partitionKey(batch));
    return finished === undefined ? batch : recordsFrom(batch, Number(finished.offset));
  }

  due(): CommitPosition[] {
    return [...this.pending.values()];
  }

  /** Forgets what was committed, unless a later position of its partition arrived meanwhile. */
  committed(positions: CommitPosition[]): void {
    for (const position of positions) {
      const key = partitionKey(position);
      if (this.pending.get(key)?.offset === position.offset) this.pending.delete(key);
    }
  }
}

/** A map key for one topic-partition; never parsed back. */
export function partitionKey({ topic, partition }: { topic: string; partition: number }): string {
  return `${topic}\u0000${partition}`;
}
