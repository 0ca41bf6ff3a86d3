import { Admin, Kafka } from 'kafkajs';

/**
 * How many jobs wait in each retry tier: end offset minus the delivery group's committed offset,
 * summed over the tier's partitions. Read from the broker when Prometheus scrapes, so the
 * figure is the group's (every instance's), not one instance's.
 */
export class RetryBacklog {
  private admin: Admin | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly groupId: string,
    /** Retry topic of each tier, tier 1 first. */
    private readonly tierTopics: string[],
  ) {}

  async measure(): Promise<Array<{ tier: number; jobs: number }>> {
    if (!this.admin) {
      this.admin = this.kafka.admin();
      await this.admin.connect();
    }
    const admin = this.admin;
    const committed = await admin.fetchOffsets({ groupId: this.groupId, topics: this.tierTopics });
    return Promise.all(
      this.tierTopics.map(async (topic, i) => {
        const ends = await admin.fetchTopicOffsets(topic);
        const done = new Map((committed.find((c) => c.topic === topic)?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
        const jobs = ends.reduce((sum, p) => {
          const from = done.get(p.partition) ?? -1;
          // No commit yet: everything from the low watermark on is waiting.
          return sum + Math.max(0, Number(p.high) - (from >= 0 ? from : Number(p.low)));
        }, 0);
        return { tier: i + 1, jobs };
      }),
    );
  }

  async close(): Promise<void> {
    await this.admin?.disconnect();
    this.admin = undefined;
  }
}
