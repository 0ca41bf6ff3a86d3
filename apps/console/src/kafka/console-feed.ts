import { randomUUID } from 'node:crypto';
import { Consumer, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { decodeDeliveryAttempts, IngestedEvent, TopicNames } from '@switchyard/contracts';
import { decodeJson } from '@switchyard/kafka';
import type { ConsoleMetrics } from '../console-metrics';
import { AttemptIndex } from '../index/attempt-index';
import { CallSample } from '../index/call-sample';

/**
 * Feeds the console's index from Kafka. Each instance reads through consumer groups of its own
 * (never committed, deleted on stop), so every start rebuilds the index from the attempts topic's
 * beginning, and several consoles never split the topic between them. The events topic is read
 * from its end only: the live debugger shows calls from now on.
 */
export class ConsoleFeed {
  private readonly attemptsGroup: string;
  private readonly eventsGroup: string;
  private readonly consumers: Consumer[] = [];
  private joined = new Set<string>();
  /** Partitions of the attempts topic not yet read up to the end they had at start. */
  private behind = new Map<number, bigint>();

  constructor(
    private readonly kafka: Kafka,
    private readonly topics: TopicNames,
    private readonly index: AttemptIndex,
    private readonly calls: CallSample,
    private readonly metrics: ConsoleMetrics,
    private readonly logger: Logger,
  ) {
    const instance = randomUUID();
    this.attemptsGroup = `${topics.deliveryAttempts}.console.${instance}`;
    this.eventsGroup = `${topics.events}.console.${instance}`;
  }

  /** Joined both groups and read the attempts topic up to where it ended at start. */
  get ready(): boolean {
    return this.joined.size === 2 && this.behind.size === 0;
  }

  async start(): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const ends = await admin.fetchTopicOffsets(this.topics.deliveryAttempts);
      this.behind = new Map(ends.filter((p) => BigInt(p.high) > BigInt(p.low)).map((p) => [p.partition, BigInt(p.high)]));
    } finally {
      await admin.disconnect();
    }
    await this.consume(this.attemptsGroup, this.topics.deliveryAttempts, true, (partition, offset, value) => this.addAttempts(partition, offset, value));
    await this.consume(this.eventsGroup, this.topics.events, false, (_partition, _offset, value) => this.addCall(value));
  }

  async stop(): Promise<void> {
    await Promise.all(this.consumers.map((c) => c.disconnect()));
    const admin = this.kafka.admin();
    await admin.connect();
    // The groups never committed and will not be used again.
    await admin.deleteGroups([this.attemptsGroup, this.eventsGroup]).catch(() => undefined);
    await admin.disconnect();
  }

  private async consume(groupId: string, topic: string, fromBeginning: boolean, each: (partition: number, offset: string, value: Buffer | null) => void): Promise<void> {
    const consumer = this.kafka.consumer({ groupId, maxWaitTimeInMs: 200 });
    this.consumers.push(consumer);
    consumer.on(consumer.events.GROUP_JOIN, () => this.joined.add(groupId));
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) each(batch.partition, message.offset, message.value);
      },
    });
  }

  private addAttempts(partition: number, offset: string, value: Buffer | null): void {
    const { attempts, refused } = decodeDeliveryAttempts(value);
    for (const attempt of attempts) this.index.add(attempt);
    for (const reason of refused) this.skip(this.topics.deliveryAttempts, reason);
    const end = this.behind.get(partition);
    if (end !== undefined && BigInt(offset) >= end - 1n) this.behind.delete(partition);
  }

  private addCall(value: Buffer | null): void {
    const decoded = decodeJson<Partial<IngestedEvent>>(value);
    const event = decoded.ok ? decoded.value : undefined;
    const call = event?.call as unknown;
    if (typeof event?.sourceId !== 'string' || typeof call !== 'object' || call === null) return this.skip(this.topics.events, 'not an ingested event');
    if (!this.calls.add({ sourceId: event.sourceId, call: call as Record<string, unknown> })) this.skip(this.topics.events, 'source not in the workspace');
  }

  private skip(topic: string, reason: string): void {
    this.metrics.skipped.inc({ topic });
    this.logger.debug({ topic, reason }, 'record skipped');
  }
}
