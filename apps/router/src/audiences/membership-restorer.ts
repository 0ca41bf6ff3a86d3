import { randomUUID } from 'node:crypto';
import { KafkaClient } from '@switchyard/kafka';
import type { Logger } from 'pino';
import { decodeMembershipChange } from '@switchyard/contracts';
import { AudienceMembership } from './audience-membership';

import { PartitionState } from './membership-store';

/**
 * Rebuilds audience state from the changelog, reading the wanted partitions from the start to
 * the end offset they had when the restore began. kafkajs has no manual partition assignment,
 * so this uses a one-off consumer group that pauses the partitions it does not need. While it
 * runs, `keepAlive` heartbeats the pipeline's own consumer so the group does not evict it.
 */
export class MembershipRestorer {
  constructor(
    private readonly kafka: KafkaClient,
    private readonly changelogTopic: string,
    private readonly groupPrefix: string,
    private readonly logger: Logger,
  ) {}

  async restore(partitions: number[], keepAlive: () => Promise<void>): Promise<Map<number, PartitionState>> {
    const states = new Map<number, PartitionState>(partitions.map((p) => [p, new Map()]));
    const remaining = await this.endOffsets(partitions);
    if (remaining.size === 0) return states;

    const started = Date.now();
    let records = 0;
    const consumer = this.kafka.consumer({
      groupId: `${this.groupPrefix}.restore.${randomUUID()}`,
      maxWaitTimeInMs: 100,
      readUncommitted: false,
    });
    const timer = setInterval(() => void keepAlive().catch(() => undefined), 1_000);
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [this.changelogTopic], fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        const reached = (partition: number, lastOffset: string) => {
          const end = remaining.get(partition);
          if (end !== undefined && BigInt(lastOffset) + 1n >= end) remaining.delete(partition);
          if (remaining.size === 0) resolve();
        };
        // Emitted for every fetched batch, including those holding only transaction markers.
        consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) =>
          reached(payload.partition, payload.lastOffset),
        );
        consumer.on(consumer.events.CRASH, ({ payload }) => reject(payload.error));
        consumer
          .run({
            autoCommit: false,
            eachBatch: async ({ batch, pause }) => {
              const state = states.get(batch.partition);
              if (!state) return void pause();
              for (const message of batch.messages) {
                const record = decodeMembershipChange(message.key?.toString('utf8') ?? null, message.value);
                if (!record) continue;
                let audience = state.get(record.computationId);
                if (!audience) state.set(record.computationId, (audience = new AudienceMembership()));
                audience.restore(record.write);
                records += 1;
              }
            },
          })
          .catch(reject);
      });
    } finally {
      clearInterval(timer);
      await consumer.disconnect();
    }
    this.logger.info({ partitions, records, ms: Date.now() - started }, 'audience membership restored');
    return states;
  }

  /** End offset per wanted partition that has any records. */
  private async endOffsets(partitions: number[]): Promise<Map<number, bigint>> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const offsets = await admin.fetchTopicOffsets(this.changelogTopic);
      return new Map(
        offsets
          .filter((o) => partitions.includes(o.partition) && BigInt(o.high) > BigInt(o.low))
          .map((o) => [o.partition, BigInt(o.high)]),
      );
    } finally {
      await admin.disconnect();
    }
  }
}
