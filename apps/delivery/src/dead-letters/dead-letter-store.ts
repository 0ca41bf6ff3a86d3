import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { describeDeadRecord, TopicNames } from '@switchyard/contracts';
import { KafkaClient, OutgoingRecord } from '@switchyard/kafka';
import { traceRecordCreation } from '@switchyard/telemetry';
import { DeliveryMetrics } from '../delivery-metrics';
import { DeadLetterFilter, DeadRecord, matchesFilter, replayHeaders } from './dead-letter';

const SCAN_TIMEOUT_MS = 60_000;

/**
 * Lists and replays dead letters by reading the whole dead-letter topic on each call. Cost:
 * one short-lived consumer group and a read of every dead record (O(topic size)) per request;
 * fine for an operator's occasional look at a topic that should stay small, not for a hot path.
 * The topic's retention bounds how far back a replay can reach.
 */
export class DeadLetterStore {
  constructor(
    private readonly kafka: KafkaClient,
    private readonly topics: TopicNames,
    private readonly produce: (records: OutgoingRecord[]) => Promise<void>,
    private readonly logger: Logger,
    private readonly metrics: DeliveryMetrics,
  ) {}

  async list(filter: DeadLetterFilter): Promise<DeadRecord[]> {
    const all = await this.scan();
    return all.filter((record) => matchesFilter(record.letter, filter));
  }

  /** Writes the matching dead letters back to the deliveries topic, same key and value (messageId kept). */
  async replay(filter: DeadLetterFilter): Promise<DeadRecord[]> {
    const records = await this.list(filter);
    // The replayed jobs continue the replay request's trace; their create span links to the trace each came from.
    const jobs = records.map((r) => ({
      topic: this.topics.deliveries,
      key: r.key?.toString('utf8') ?? null,
      value: r.value ?? Buffer.alloc(0),
      headers: replayHeaders(r),
    }));
    await this.produce(traceRecordCreation(jobs));
    this.metrics.replayed(records.length);
    this.logger.info({ replayed: records.length, filter }, 'dead letters replayed');
    return records;
  }

  private async scan(): Promise<DeadRecord[]> {
    const topic = this.topics.deliveriesDead;
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const ends = (await admin.fetchTopicOffsets(topic)).filter((p) => BigInt(p.high) > BigInt(p.low));
      if (ends.length === 0) return [];
      const groupId = `${topic}.scan.${randomUUID()}`;
      try {
        return await this.readUntil(topic, groupId, new Map(ends.map((p) => [p.partition, BigInt(p.high)])));
      } finally {
        await admin.deleteGroups([groupId]).catch(() => undefined);
      }
    } finally {
      await admin.disconnect();
    }
  }

  /** Reads every partition from its start up to the end offsets taken before the scan began. */
  private async readUntil(topic: string, groupId: string, ends: Map<number, bigint>): Promise<DeadRecord[]> {
    const consumer = this.kafka.consumer({ groupId, maxWaitTimeInMs: 100 });
    const records: DeadRecord[] = [];
    const remaining = new Set(ends.keys());
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`dead-letter scan did not finish within ${SCAN_TIMEOUT_MS} ms`)),
          SCAN_TIMEOUT_MS,
        );
        consumer
          .run({
            autoCommit: false,
            eachMessage: async ({ partition, message }) => {
              const end = ends.get(partition);
              if (end === undefined || BigInt(message.offset) >= end) return;
              records.push({
                letter: describeDeadRecord(partition, message.offset, message.headers),
                key: message.key,
                value: message.value,
                headers: message.headers,
              });
              if (BigInt(message.offset) === end - 1n) remaining.delete(partition);
              if (remaining.size === 0) {
                clearTimeout(timer);
                resolve();
              }
            },
          })
          .catch(reject);
      });
    } finally {
      await consumer.disconnect();
    }
    return records.sort((a, b) => (a.letter.deadAt ?? '').localeCompare(b.letter.deadAt ?? ''));
  }
}
