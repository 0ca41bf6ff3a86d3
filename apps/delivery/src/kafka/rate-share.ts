import type { Logger } from 'pino';
import { KafkaClient, retryTransient } from '@switchyard/kafka';
import { RateGate } from '../isolation/rate-gate';

/** The fraction of `partitionCounts`' partitions that `assignment` holds: a member's share of the group's work. */
export function partitionShare(
  assignment: Readonly<Record<string, readonly number[]>>,
  partitionCounts: Readonly<Record<string, number>>,
): number {
  const topics = Object.keys(partitionCounts);
  const total = topics.reduce((sum, topic) => sum + partitionCounts[topic], 0);
  const owned = topics.reduce((sum, topic) => sum + (assignment[topic]?.length ?? 0), 0);
  return total === 0 ? 0 : owned / total;
}

/**
 * Keeps the rate gate's share equal to this instance's share of the delivery group's partitions
 * (deliveries and retry topics together), recomputed at every group join. Partition counts are
 * read at each join, since a topic that gained partitions causes one.
 */
export class RateShare {
  constructor(
    private readonly kafka: KafkaClient,
    private readonly topics: readonly string[],
    private readonly gate: RateGate,
    private readonly logger: Logger,
  ) {}

  async assigned(assignment: Readonly<Record<string, readonly number[]>>): Promise<void> {
    try {
      const share = partitionShare(assignment, await this.partitionCounts());
      this.gate.setShare(share);
      this.logger.info({ share }, 'rate limits: this instance takes its share of every destination limit');
    } catch (error) {
      // The previous share stays: at worst this instance keeps a larger share until the next join.
      this.logger.error(
        { reason: (error as Error).message },
        'could not read partition counts for rate limits',
      );
    }
  }

  private async partitionCounts(): Promise<Record<string, number>> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const { topics } = await retryTransient(() => admin.fetchTopicMetadata({ topics: [...this.topics] }));
      return Object.fromEntries(topics.map((t) => [t.name, t.partitions.length]));
    } finally {
      await admin.disconnect();
    }
  }
}
