import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  decodeDeliveryAttempts,
  decodeJson,
  describeDeadRecord,
  IngestedEvent,
  TopicNames,
} from '@switchyard/contracts';
import {
  ConsumerRestarter,
  KafkaAdmin,
  KafkaClient,
  KafkaConsumer,
  KafkaRecord,
  retryTransient,
} from '@switchyard/kafka';
import type { ConsoleMetrics } from '../console-metrics';
import type { ConsoleIndexes } from '../index/console-indexes';

type PartitionEnds = Awaited<ReturnType<KafkaAdmin['fetchTopicOffsets']>>;

/** What the feed fills. */
/** How often the groups commit what they read: a restarted consumer reads at most this much again. */
const COMMIT_INTERVAL_MS = 1_000;

/**
 * A feed fetch waits this long for records to gather, unless a megabyte has (rebuilding the index
 * at start). The console beside the pipeline in one process would otherwise take every call and
 * every attempt as it is written, on the event loop the router and delivery share, at the very
 * moment they handle it; a fifth of a second later, in batches, costs the pages nothing.
 */
const FEED_WAIT_MS = 200;
const FEED_MIN_BYTES = 1024 * 1024;

/**
 * Feeds the console's index from Kafka. Each instance reads through consumer groups of its own
 * (deleted on stop), so every start rebuilds the index from the beginning of the attempts and
 * dead-letter topics, and several consoles never split a topic between them. The events topic is
 * read from where it ended at start: the live debugger shows calls from then on.
 *
 * The groups commit what they read: a consumer that kafkajs or ConsumerRestarter restarts in
 * the same process resumes there, instead of reading the rebuilt topics again (every attempt
 * twice in the index) or jumping to the events topic's end (every call sent while it was down
 * missing from the debugger).
 */
export class ConsoleFeed {
  private readonly instance = randomUUID();
  private readonly consumers: { consumer: KafkaConsumer; restarter: ConsumerRestarter }[] = [];
  private readonly groups: string[] = [];
  private readonly joined = new Set<string>();
  /** `<topic>:<partition>` of the rebuilt topics not yet read up to the end they had at start. */
  private readonly behind = new Map<string, bigint>();

  constructor(
    private readonly kafka: KafkaClient,
    private readonly topics: TopicNames,
    private readonly indexes: ConsoleIndexes,
    private readonly metrics: ConsoleMetrics,
    private readonly logger: Logger,
  ) {}

  /** Joined every group and read the rebuilt topics up to where they ended at start. */
  get ready(): boolean {
    return this.joined.size === 3 && this.behind.size === 0;
  }

  async start(): Promise<void> {
    const { deliveryAttempts, deliveriesDead, events } = this.topics;
    const [attemptsEnd, deadEnd, eventsEnd] = await this.endOffsets([
      deliveryAttempts,
      deliveriesDead,
      events,
    ]);
    this.noteBehind(deliveryAttempts, attemptsEnd);
    this.noteBehind(deliveriesDead, deadEnd);
    await this.consume(deliveryAttempts, true, (partition, message) => this.addAttempts(partition, message));
    await this.consume(deliveriesDead, true, (partition, message) => this.addDeadLetter(partition, message));
    const calls = await this.consume(events, false, (_partition, message) => this.addCall(message.value));
    // Left to kafkajs, "latest" is resolved at the group's first fetch, after readiness, and a call
    // sent in between would never show. The seek is applied before that fetch's records are handed over.
    for (const { partition, high } of eventsEnd) calls.seek({ topic: events, partition, offset: high });
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.consumers.map(async ({ consumer, restarter }) => {
        await restarter.stop();
        await consumer.disconnect();
      }),
    );
    const admin = this.kafka.admin();
    await admin.connect();
    // No later start uses these groups: each start has groups of its own.
    await admin.deleteGroups(this.groups).catch(() => undefined);
    await admin.disconnect();
  }

  /** Each topic's partitions with their first and next offsets. */
  private async endOffsets(topics: string[]): Promise<PartitionEnds[]> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      // Right after the topics are created a broker may not know their leaders yet: that passes.
      return await Promise.all(topics.map((topic) => retryTransient(() => admin.fetchTopicOffsets(topic))));
    } finally {
      await admin.disconnect();
    }
  }

  private noteBehind(topic: string, ends: PartitionEnds): void {
    for (const p of ends)
      if (BigInt(p.high) > BigInt(p.low)) this.behind.set(`${topic}:${p.partition}`, BigInt(p.high));
  }

  /** Reads `topic` from its group's committed offsets; without them, from the beginning or the end. */
  private async consume(
    topic: string,
    fromBeginning: boolean,
    each: (partition: number, message: KafkaRecord) => void,
  ): Promise<KafkaConsumer> {
    const groupId = `${topic}.console.${this.instance}`;
    const consumer = this.kafka.consumer({
      groupId,
      maxWaitTimeInMs: FEED_WAIT_MS,
      minBytes: FEED_MIN_BYTES,
    });
    const restarter = new ConsumerRestarter(
      consumer,
      {
        autoCommitInterval: COMMIT_INTERVAL_MS,
        eachBatch: async ({ batch }) => {
          for (const message of batch.messages) {
            each(batch.partition, message);
            this.caughtUp(topic, batch.partition, message.offset);
          }
        },
      },
      groupId,
      this.logger,
    );
    this.consumers.push({ consumer, restarter });
    this.groups.push(groupId);
    consumer.on(consumer.events.GROUP_JOIN, () => this.joined.add(groupId));
    // Not ready while a consumer is down: ConsumerRestarter (or kafkajs) brings it back.
    consumer.on(consumer.events.CRASH, () => this.joined.delete(groupId));
    await retryTransient(async () => {
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning });
      await restarter.run();
    });
    return consumer;
  }

  private caughtUp(topic: string, partition: number, offset: string): void {
    const key = `${topic}:${partition}`;
    const end = this.behind.get(key);
    if (end !== undefined && BigInt(offset) >= end - 1n) this.behind.delete(key);
  }

  private addAttempts(_partition: number, message: KafkaRecord): void {
    const { attempts, refused } = decodeDeliveryAttempts(message.value);
    for (const attempt of attempts) this.indexes.attempts.add(attempt);
    for (const reason of refused) this.skip(this.topics.deliveryAttempts, reason);
  }

  /** Every dead letter is kept, unreadable ones too (they show without ids): the list is what the topic holds. */
  private addDeadLetter(partition: number, message: KafkaRecord): void {
    this.indexes.deadLetters.add(describeDeadRecord(partition, message.offset, message.headers));
  }

  private addCall(value: Buffer | null): void {
    const decoded = decodeJson<Partial<IngestedEvent>>(value);
    const event = decoded.ok ? decoded.value : undefined;
    const call = event?.call as unknown;
    if (typeof event?.sourceId !== 'string' || typeof call !== 'object' || call === null)
      return this.skip(this.topics.events, 'not an ingested event');
    if (!this.indexes.calls.add({ sourceId: event.sourceId, call: call as Record<string, unknown> }))
      this.skip(this.topics.events, 'source not in the workspace');
  }

  private skip(topic: string, reason: string): void {
    this.metrics.skipped.inc({ topic });
    this.logger.debug({ topic, reason }, 'record skipped');
  }
}
