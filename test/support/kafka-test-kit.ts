import { randomUUID } from 'node:crypto';
import { decodeDeliveryHeaders, DeliveryJob, deliveryJobId, WebhookEnvelope } from '@switchyard/contracts';
import { KafkaAdmin, KafkaClient, KafkaConsumer, RecordPayload } from '@switchyard/kafka';
import { rawTestKafka, testKafkaClient } from '../../libs/kafka/src/testing';
import { Collected } from './collected';
import { localKafkaBrokers } from '@switchyard/config';

/** The broker the integration suites use (global-setup starts a local one when unset). */
export function testBrokers(): string {
  return localKafkaBrokers();
}

export function testKafka(): KafkaClient {
  return testKafkaClient(testBrokers().split(','));
}

/** kafkajs's own consumer, which the port's consumers wrap. */
export type RawConsumer = ReturnType<ReturnType<typeof rawTestKafka>['consumer']>;

/**
 * Another member of `groupId`: it joins, as another replica would, and so makes the group
 * rebalance. It reads nothing, unless `onBatch` is given: it then gets the record count of each
 * batch and holds the member (its heartbeats and any rejoin included) until it settles. Resolves
 * once it has joined, with the partitions of `topics[0]` it took and a function that makes it leave.
 */
export async function groupMember(
  groupId: string,
  topics: string[],
  onBatch: (records: number) => Promise<void> = async () => undefined,
): Promise<{ taken: number[]; leave: () => Promise<void> }> {
  const member = rawTestKafka(testBrokers().split(','), 'test-member').consumer({ groupId });
  const assigned = new Promise<Record<string, number[]>>((resolve) =>
    member.on(member.events.GROUP_JOIN, ({ payload }) => resolve(payload.memberAssignment)),
  );
  await member.connect();
  await member.subscribe({ topics });
  await member.run({ autoCommit: false, eachBatch: ({ batch }) => onBatch(batch.messages.length) });
  return { taken: (await assigned)[topics[0]] ?? [], leave: () => member.disconnect() };
}

/** A topic namespace no other test shares, so tests need no broker restart or cleanup. */
export function freshNamespace(label = 't'): string {
  return `${label}-${randomUUID().slice(0, 8)}`;
}

export interface ReadRecord<T = unknown> {
  topic: string;
  partition: number;
  key: string | null;
  value: T;
  /** The value's bytes as text: what JSON.parse would round off (integers beyond 2^53) is still exact here. */
  text: string;
  headers: Record<string, string>;
  offset: string;
}

/** Turns a record's parsed JSON value (and its headers) into what a test reads. */
export type RecordView<T> = (value: unknown, headers: Record<string, string>) => T;

/**
 * Delivery-job records (envelope as value, ids in headers) as one object, so tests read
 * `value.messageId` and `value.body` together; other records (dead letters of events) as they are.
 */
export const deliveryJobView: RecordView<DeliveryJob> = (value, headers) => {
  const { destinationId, messageId, sourceId } = decodeDeliveryHeaders(headers).ids;
  if (destinationId === undefined || messageId === undefined) return value as DeliveryJob;
  return {
    jobId: deliveryJobId(messageId, destinationId),
    destinationId,
    messageId,
    sourceId: sourceId as string,
    body: value as WebhookEnvelope,
  };
};

/** Collects everything on some topics (from the beginning) until `stop`; parsed as JSON. */
export class TopicReader<T = unknown> {
  private readonly collected = new Collected<ReadRecord<T>>();
  private consumer: KafkaConsumer | undefined;

  get records(): ReadRecord<T>[] {
    return this.collected.items;
  }

  private constructor(private readonly view: RecordView<T>) {}

  static async start<T = unknown>(
    topics: string[],
    view: RecordView<T> = (value) => value as T,
  ): Promise<TopicReader<T>> {
    const reader = new TopicReader<T>(view);
    const consumer = testKafka().consumer({ groupId: `reader-${randomUUID()}`, maxWaitTimeInMs: 100 });
    reader.consumer = consumer;
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({ eachMessage: async (p) => reader.add(p) });
    return reader;
  }

  private add({ topic, partition, message }: RecordPayload): void {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(message.headers ?? {}))
      if (v !== undefined) headers[k] = String(Array.isArray(v) ? v[0] : v);
    this.collected.add({
      topic,
      partition,
      key: message.key?.toString() ?? null,
      value: this.view(JSON.parse(message.value?.toString() ?? 'null'), headers),
      text: message.value?.toString() ?? '',
      headers,
      offset: message.offset,
    });
  }

  /** Resolves with the records matching `filter` once there are at least `count` of them. */
  waitFor(
    count: number,
    filter: (r: ReadRecord<T>) => boolean = () => true,
    timeoutMs = 20_000,
  ): Promise<ReadRecord<T>[]> {
    return this.collected.waitFor(count, filter, timeoutMs, 'records');
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }
}

/** Whether `groupId` has committed every partition of `topic` up to the topic's end. */
export async function committedToEnd(admin: KafkaAdmin, groupId: string, topic: string): Promise<boolean> {
  const ends = await admin.fetchTopicOffsets(topic);
  const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
  const offsets = new Map(committed.partitions.map((p) => [p.partition, p.offset]));
  return ends.every((p) => offsets.get(p.partition) === p.high);
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<Exclude<T, false | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as Exclude<T, false | undefined>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
