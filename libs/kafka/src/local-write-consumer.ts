import type {
  BatchPayload,
  ConsumerRunOptions,
  KafkaConsumer,
  KafkaRecord,
  OutgoingMessage,
  PartitionOffset,
  RecordBatch,
  TopicPartitions,
} from './kafka-port';
import { LocalWrite, LocalWrites } from './local-writes';
import { recordBatch, recordsFrom } from './record-batch';

/**
 * The most records a write may hold to be handed over. A larger write means a busy pipeline, whose
 * fetches bring records without waiting anyway; handing them over as well would only have each
 * record decoded twice, once from the fetch that brings it again.
 */
export const MAX_HANDED_OVER_RECORDS = 16;

/** The client's consumer, which also says which partitions are paused. */
export type PausableConsumer = KafkaConsumer & { paused(): TopicPartitions[] };

/**
 * A consumer that also takes its topics' records from this process's own producers, as soon as
 * the broker has acknowledged them, instead of waiting for its pending fetch to bring them.
 *
 * A write of a few records is handed to the batch handler where that changes nothing the handler
 * could tell:
 * - this member owns the partition in its current generation, has not paused it, and has no batch
 *   of it in hand;
 * - the write's first offset is the one after the last the handler resolved in this partition, so
 *   no record before it is unread, and the partition's records still reach the handler once each
 *   and in order.
 *
 * The fetch brings the same records afterwards: those already resolved are left out of its batch
 * (a batch with nothing else is resolved at once), and a fetched batch waits for a handed-over one
 * of its partition to finish. A handed-over batch that fails or leaves records unresolved changes
 * nothing: the fetch hands those records over as before. Every position the client commits is the
 * handler's, so commits and restarts behave as with fetches alone.
 */
export function takingLocalWrites(
  consumer: PausableConsumer,
  topics: readonly string[],
  writes: LocalWrites,
  cluster: string,
): KafkaConsumer {
  return new LocalWriteConsumer(consumer, topics, writes, cluster).facade();
}

class LocalWriteConsumer {
  private eachBatch: ((payload: BatchPayload) => Promise<void>) | undefined;
  private assignment = new Map<string, Set<number>>();
  private generation = 0;
  private joined = false;
  /** By partition: the offset after the last one the handler resolved in this generation. */
  private readonly next = new Map<string, number>();
  private readonly inHand = new Map<string, Promise<void>>();
  private stopListening: (() => void)[] = [];

  constructor(
    private readonly consumer: PausableConsumer,
    private readonly topics: readonly string[],
    private readonly writes: LocalWrites,
    private readonly cluster: string,
  ) {
    const { GROUP_JOIN, CRASH, STOP, DISCONNECT } = consumer.events;
    // Registered before any of the service's own listeners, so a new generation starts afresh first.
    consumer.on(GROUP_JOIN, ({ payload }) => {
      this.assignment = new Map(
        Object.entries(payload.memberAssignment).map(([topic, partitions]) => [topic, new Set(partitions)]),
      );
      this.next.clear();
      this.generation += 1;
      this.joined = true;
    });
    for (const event of [CRASH, STOP, DISCONNECT]) consumer.on(event, () => (this.joined = false));
  }

  facade(): KafkaConsumer {
    const consumer = this.consumer;
    return {
      ...consumer,
      connect: async () => {
        await consumer.connect();
        if (this.stopListening.length === 0)
          this.stopListening = this.topics.map((topic) =>
            this.writes.listen(this.cluster, topic, (write) => this.take(write)),
          );
      },
      disconnect: async () => {
        for (const stop of this.stopListening) stop();
        this.stopListening = [];
        await consumer.disconnect();
      },
      run: (options: ConsumerRunOptions) => {
        const eachBatch = options.eachBatch;
        this.eachBatch = eachBatch;
        if (!eachBatch) return consumer.run(options);
        return consumer.run({ ...options, eachBatch: (payload) => this.fetched(payload, eachBatch) });
      },
      seek: (position: PartitionOffset) => {
        // The handler will be handed the partition from `offset` on, whatever it resolved before.
        this.next.delete(partitionKey(position.topic, position.partition));
        consumer.seek(position);
      },
    };
  }

  private async fetched(
    payload: BatchPayload,
    eachBatch: (payload: BatchPayload) => Promise<void>,
  ): Promise<void> {
    const { batch } = payload;
    const key = partitionKey(batch.topic, batch.partition);
    const handedOver = this.inHand.get(key);
    if (handedOver) await handedOver.catch(() => undefined);
    const next = this.next.get(key);
    const unresolved = next === undefined ? batch : recordsFrom(batch, next);
    if (unresolved !== batch && unresolved.isEmpty()) {
      this.next.set(key, Math.max(next ?? 0, Number(batch.lastOffset()) + 1));
      return payload.resolveOffset(batch.lastOffset());
    }
    const lastMessage = batch.messages.at(-1)?.offset;
    const generation = this.generation;
    return this.handle(
      key,
      eachBatch({
        ...payload,
        batch: unresolved,
        resolveOffset: (offset) => {
          // The client resolves a batch's trailing control records with its last message.
          const after = Number(offset === lastMessage ? batch.lastOffset() : offset) + 1;
          this.resolved(key, generation, after);
          payload.resolveOffset(offset);
        },
      }),
    );
  }

  /**
   * A batch of an earlier generation says nothing of this one's position: the new generation
   * reads again from the committed offset, which may lie before what that batch resolved.
   */
  private resolved(key: string, generation: number, next: number): void {
    if (this.generation === generation) this.next.set(key, next);
  }

  private take(write: LocalWrite): void {
    const { topic, partition } = write;
    const key = partitionKey(topic, partition);
    const eachBatch = this.eachBatch;
    if (!eachBatch || !this.joined || write.messages.length > MAX_HANDED_OVER_RECORDS) return;
    if (this.inHand.has(key) || this.next.get(key) !== write.baseOffset) return;
    if (!this.assignment.get(topic)?.has(partition) || this.isPaused(topic, partition)) return;
    const generation = this.generation;
    const handling = eachBatch({
      batch: localBatch(write),
      resolveOffset: (offset) => this.resolved(key, generation, Number(offset) + 1),
      heartbeat: () => Promise.resolve(),
      isRunning: () => this.joined,
      isStale: () => this.generation !== generation,
      pause: () => {
        this.consumer.pause([{ topic, partitions: [partition] }]);
        return () => this.consumer.resume([{ topic, partitions: [partition] }]);
      },
    });
    // A failure here is the fetch's to meet again: the records it left unresolved come with it.
    void this.handle(key, handling).catch(() => undefined);
  }

  private handle(key: string, handling: Promise<void>): Promise<void> {
    this.inHand.set(key, handling);
    const done = () => {
      if (this.inHand.get(key) === handling) this.inHand.delete(key);
    };
    handling.then(done, done);
    return handling;
  }

  private isPaused(topic: string, partition: number): boolean {
    return this.consumer
      .paused()
      .some(
        (paused) => paused.topic === topic && (!paused.partitions || paused.partitions.includes(partition)),
      );
  }
}

/** A write as the records a fetch would bring. */
function localBatch(write: LocalWrite): RecordBatch {
  const messages = write.messages.map((message, i) =>
    localRecord(message, write.baseOffset + i, write.timestamp),
  );
  const end = write.baseOffset + messages.length;
  return recordBatch(write.topic, write.partition, messages, String(end - 1), String(end));
}

function localRecord(message: OutgoingMessage, offset: number, timestamp: string): KafkaRecord {
  const headers: Record<string, string | Buffer> = {};
  for (const name in message.headers) {
    const value = message.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  return {
    key: asBuffer(message.key),
    value: asBuffer(message.value),
    headers,
    offset: String(offset),
    timestamp,
  };
}

function asBuffer(bytes: Buffer | string | null | undefined): Buffer | null {
  if (bytes === null || bytes === undefined) return null;
  return typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
}

function partitionKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}
