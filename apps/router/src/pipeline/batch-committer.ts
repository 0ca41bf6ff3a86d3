import {
  BatchingProducer,
  CommitPosition,
  CompressionCodec,
  compressionFor,
  KafkaProducer,
  MarkedPositions,
  MAX_PRODUCE_REQUEST_BYTES,
  ProduceRequest,
  recordBytes,
  topicMessages,
  TopicMessages,
} from '@switchyard/kafka';
import { traceSend } from '@switchyard/telemetry';
import { HandledBatch } from './batch-handler';
import { OutputRecord } from './output-record';

/** Writes a handled batch and commits its input offsets: outputs first, never the other way round. */
export interface BatchCommitter {
  commit(handled: HandledBatch, position: CommitPosition): Promise<void>;
}

/**
 * Exactly-once routing: outputs, changelog and input offsets in one Kafka transaction
 * (consume-transform-produce). Consumers reading committed data see all of it or none.
 * kafkajs allows one open transaction per producer, which matches one batch at a time.
 */
export class TransactionalCommitter implements BatchCommitter {
  constructor(
    private readonly producer: KafkaProducer,
    private readonly groupId: string,
    private readonly compression: CompressionCodec,
  ) {}

  async commit(handled: HandledBatch, position: CommitPosition): Promise<void> {
    const transaction = await this.producer.transaction();
    try {
      for (const slice of slices([...handled.outputs, ...handled.changelog])) {
        const request = produceRequest(slice, this.compression);
        await traceSend(request.topicMessages, () => transaction.sendBatch(request));
      }
      await transaction.sendOffsets({
        consumerGroupId: this.groupId,
        topics: [
          { topic: position.topic, partitions: [{ partition: position.partition, offset: position.offset }] },
        ],
      });
      await transaction.commit();
    } catch (error) {
      if (transaction.isActive()) await transaction.abort().catch(() => undefined);
      throw error;
    }
  }
}

/**
 * At-least-once routing: outputs acknowledged by every in-sync replica, then the changelog,
 * then the input offset is marked for the next periodic commit. A crash in between replays the
 * batch; receivers de-duplicate on messageId.
 *
 * The partitions handled side by side share one BatchingProducer, so their outputs go out in
 * few produce requests instead of one per partition batch (the producer allows one request in
 * flight anyway, which keeps each partition's records in order across retries).
 */
export class AcknowledgedCommitter implements BatchCommitter {
  constructor(
    private readonly producer: BatchingProducer,
    private readonly offsets: MarkedPositions,
  ) {}

  async commit(handled: HandledBatch, position: CommitPosition): Promise<void> {
    for (const records of [handled.outputs, handled.changelog]) {
      // Slices are queued in order and sent one request at a time, so order per key holds.
      await Promise.all(slices(records).map((slice) => this.producer.send(slice.records)));
    }
    this.offsets.mark(position);
  }
}

/** Records that go out in one produce request, and their key and value bytes. */
export interface Slice {
  records: OutputRecord[];
  bytes: number;
}

/**
 * Consecutive slices of at most MAX_PRODUCE_REQUEST_BYTES of keys and values each (a larger record
 * gets a slice of its own): one input batch can fan out to several times its own size (one job per
 * destination, a whole audience page of identify calls).
 */
export function slices(records: OutputRecord[], maxBytes = MAX_PRODUCE_REQUEST_BYTES): Slice[] {
  const result: Slice[] = [];
  let current: Slice = { records: [], bytes: 0 };
  for (const record of records) {
    const size = recordBytes(record);
    if (current.records.length > 0 && current.bytes + size > maxBytes) {
      result.push(current);
      current = { records: [], bytes: 0 };
    }
    current.records.push(record);
    current.bytes += size;
  }
  if (current.records.length > 0) result.push(current);
  return result;
}

function produceRequest(
  slice: Slice,
  compression: CompressionCodec,
): ProduceRequest & { topicMessages: TopicMessages[] } {
  return {
    topicMessages: topicMessages([slice.records]),
    acks: -1,
    compression: compressionFor(compression, slice.bytes),
  };
}
