import { KafkaRecord, RecordBatch } from '@switchyard/kafka';
import { ConsumedRecord, Span, traceRecordCreation, withProcessSpanSync } from '@switchyard/telemetry';
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

/** What a handler may need of the pipeline that hands it a batch. */
export interface BatchContext {
  /** Tells the group this member is alive during long work. */
  heartbeat: () => Promise<void>;
  /** The consumer group reading the batch (its records' process spans name it). */
  consumerGroup: string;
}

/** The use case behind one pipeline: turns a batch of input records into output records. */
export interface BatchHandler {
  handle(batch: RecordBatch, context: BatchContext): Promise<HandledBatch>;
  /** The partitions this instance now owns, after every rebalance. */
  onAssigned?(partitions: Record<string, number[]>): void;
  /** Writing a batch's results failed; state the handler built from it must be dropped. */
  onCommitFailed?(topic: string, partition: number): void;
}

/** Where a batch's record was read from, for its process span. */
export function consumedRecord(batch: RecordBatch, message: KafkaRecord): ConsumedRecord {
  return { topic: batch.topic, partition: batch.partition, offset: message.offset, headers: message.headers };
}

/**
 * Each record's outputs, each record handled in its own process span that continues the trace
 * its headers carry; the outputs carry that trace on to their readers.
 */
export function tracedOutputs(
  batch: RecordBatch,
  consumerGroup: string,
  outputsOf: (message: KafkaRecord, span: Span) => OutputRecord[],
): OutputRecord[] {
  return batch.messages.flatMap((message) =>
    withProcessSpanSync(consumedRecord(batch, message), consumerGroup, (span) =>
      traceRecordCreation(outputsOf(message, span)),
    ),
  );
}
