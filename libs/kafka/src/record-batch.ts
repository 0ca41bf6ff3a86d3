import type { KafkaRecord, RecordBatch } from './kafka-port';

/** A batch of `messages` as a fetch would hand it over. */
export function recordBatch(
  topic: string,
  partition: number,
  messages: KafkaRecord[],
  lastOffset: string,
  highWatermark: string,
): RecordBatch {
  return {
    topic,
    partition,
    highWatermark,
    messages,
    isEmpty: () => messages.length === 0,
    firstOffset: () => messages[0]?.offset ?? null,
    lastOffset: () => lastOffset,
  };
}

/** The batch without its records before offset `next`; the batch itself when it has none. */
export function recordsFrom(batch: RecordBatch, next: number): RecordBatch {
  const first = batch.firstOffset();
  if (first === null || Number(first) >= next) return batch;
  const messages = batch.messages.filter((message) => Number(message.offset) >= next);
  return recordBatch(batch.topic, batch.partition, messages, batch.lastOffset(), batch.highWatermark);
}
