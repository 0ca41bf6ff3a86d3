import type { Batch } from 'kafkajs';
import { OutputRecord } from './output-record';

/** What handling one batch produced. Nothing is written until the pipeline commits it. */
export interface HandledBatch {
  /** Delivery jobs and dead letters. */
  outputs: OutputRecord[];
  /**
   * State changes (audience membership). Without transactions they are written after the
   * outputs, so a crash in between replays the batch and re-sends outputs rather than
   * recording a change that was never sent.
   */
  changelog: OutputRecord[];
}

export const NOTHING_HANDLED: HandledBatch = { outputs: [], changelog: [] };

/** The use case behind one pipeline: turns a batch of input records into output records. */
export interface BatchHandler {
  handle(batch: Batch, heartbeat: () => Promise<void>): Promise<HandledBatch>;
  /** The partitions this instance now owns, after every rebalance. */
  onAssigned?(partitions: Record<string, number[]>): void;
  /** Writing a batch's results failed; state the handler built from it must be dropped. */
  onCommitFailed?(topic: string, partition: number): void;
}
