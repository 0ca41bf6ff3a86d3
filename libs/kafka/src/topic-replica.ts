import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { ConsumerRestarter } from './consumer-restarter';
import { untilBrokersAnswer } from './kafka-startup';
import { KafkaClient, KafkaConsumer, KafkaRecord } from './kafka-port';
import { retryTransient } from './topic-admin';

/** Session of a replica's one-member group: long enough to ride out heartbeats a loaded machine delays. */
const REPLICA_SESSION_MS = 45_000;

/** Hands over the records of one fetched batch, in offset order. */
export type ReplicaBatchHandler = (records: readonly KafkaRecord[], partition: number) => void;

/**
 * A whole topic read into this process from its beginning, and followed as it grows: each
 * instance reads through a consumer group of its own (deleted on stop), so several instances
 * never split the topic between them. It has caught up once it has read every record the topic
 * held when it started; `catchUp` waits for the records committed before the call. A writer that
 * reads its own topic waits for its record with `catchUpTo`: a transaction's commit returns
 * before the broker's end offset (the last stable offset) covers it.
 */
export class TopicReplica {
  private readonly groupId: string;
  private consumer: KafkaConsumer | undefined;
  private restarter: ConsumerRestarter | undefined;
  /** The next offset to read, per partition. */
  private readonly positions = new Map<number, bigint>();
  private readonly waiters: { ends: Map<number, bigint>; resolve: () => void }[] = [];
  private startEnds: Map<number, bigint> | undefined;

  constructor(
    private readonly kafka: KafkaClient,
    private readonly topic: string,
    private readonly onBatch: ReplicaBatchHandler,
    private readonly logger: Logger,
    /** How long a fetch waits on an empty partition: the delay before a new record is seen. */
    private readonly maxWaitTimeInMs = 100,
  ) {
    this.groupId = `${topic}.replica.${randomUUID()}`;
  }

  /** Read up to where the topic ended at start. */
  get caughtUp(): boolean {
    return this.startEnds !== undefined && this.reached(this.startEnds);
  }

  /**
   * Starts reading; resolves once the records the topic held at start have been handed over. A
   * replica starts beside its service's Kafka start-up, so it waits as that does for brokers that
   * are away, for as long as they are.
   */
  async start(): Promise<void> {
    this.startEnds = await untilBrokersAnswer(() => this.ends());
    const consumer = this.kafka.consumer({
      groupId: this.groupId,
      maxWaitTimeInMs: this.maxWaitTimeInMs,
      // The group has this one member, so a long session costs no failover; a short one dropped
      // the member whenever a loaded machine delayed its heartbeats, and nothing was read while
      // it rejoined (a console write waits for its own replica).
      sessionTimeout: REPLICA_SESSION_MS,
    });
    this.consumer = consumer;
    this.restarter = new ConsumerRestarter(
      consumer,
      {
        autoCommit: false,
        eachBatch: async ({ batch }) => this.handOver(batch.partition, batch.messages),
      },
      this.groupId,
      this.logger,
    );
    // Also after a batch of transaction markers alone, which reaches no handler but moves the position.
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      const next = BigInt(payload.lastOffset) + 1n;
      if (next > this.position(payload.partition)) this.positions.set(payload.partition, next);
      this.wake();
    });
    await retryTransient(async () => {
      await consumer.connect();
      await consumer.subscribe({ topics: [this.topic], fromBeginning: true });
      await this.restarter!.run();
    });
    await this.until(this.startEnds);
  }

  /** Resolves once every record committed to the topic before the call has been handed over. */
  async catchUp(): Promise<void> {
    await this.until(await this.ends());
  }

  /** Resolves once the record at `offset` of `partition`, and every one before it, has been handed over. */
  catchUpTo(partition: number, offset: string): Promise<void> {
    return this.until(new Map([[partition, BigInt(offset) + 1n]]));
  }

  async stop(): Promise<void> {
    await this.restarter?.stop();
    await this.consumer?.disconnect();
    const admin = this.kafka.admin();
    await admin.connect();
    // No later start uses this group: each start has a group of its own.
    await admin.deleteGroups([this.groupId]).catch(() => undefined);
    await admin.disconnect();
  }

  private async ends(): Promise<Map<number, bigint>> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const offsets = await retryTransient(() => admin.fetchTopicOffsets(this.topic));
      // A partition that holds nothing (never written, or emptied by retention) has nothing to wait for.
      const held = offsets.filter((p) => BigInt(p.high) > BigInt(p.low));
      return new Map(held.map((p) => [p.partition, BigInt(p.high)]));
    } finally {
      await admin.disconnect();
    }
  }

  /**
   * Hands each record over once. A consumer restarted after an outage has no committed offset to
   * resume from and reads the topic again from its beginning: handing those records over again
   * would take readers back through every earlier state, and add the records a second time.
   */
  private handOver(partition: number, records: readonly KafkaRecord[]): void {
    const next = this.position(partition);
    const unseen = records.filter((r) => BigInt(r.offset) >= next);
    if (unseen.length > 0) this.onBatch(unseen, partition);
  }

  private position(partition: number): bigint {
    return this.positions.get(partition) ?? 0n;
  }

  /** Every partition read up to `ends` (transaction markers included: they take offsets too). */
  private reached(ends: Map<number, bigint>): boolean {
    for (const [partition, end] of ends) if (this.position(partition) < end) return false;
    return true;
  }

  private until(ends: Map<number, bigint>): Promise<void> {
    if (this.reached(ends)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ ends, resolve }));
  }

  private wake(): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.reached(this.waiters[i].ends)) this.waiters.splice(i, 1)[0].resolve();
    }
  }
}
