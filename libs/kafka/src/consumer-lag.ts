import { Admin, Kafka } from 'kafkajs';
import { Gauge, metric } from '@switchyard/telemetry';

/** One consumer group and the topics it reads. */
export interface ConsumedTopics {
  groupId: string;
  topics: string[];
}

/** Records of one partition the group has not consumed yet: end offset minus the group's committed offset. */
export interface PartitionLag {
  groupId: string;
  topic: string;
  partition: number;
  lag: number;
}

/** Measurements asked for within this long share one round of broker requests (a scrape reads several gauges). */
const SHARED_MEASUREMENT_MS = 1000;

/**
 * Consumer lag as the broker sees it, for the groups a service runs: so no separate exporter is
 * needed. The figure is the group's (every instance's), read when Prometheus scrapes, so every
 * replica reports the same series; aggregate them with max, not sum.
 */
export class ConsumerLagMonitor {
  private admin: Admin | undefined;
  private last: { at: number; result: Promise<PartitionLag[]> } | undefined;

  constructor(
    private readonly kafka: Kafka,
    readonly groups: readonly ConsumedTopics[],
  ) {}

  measure(): Promise<PartitionLag[]> {
    const now = Date.now();
    if (this.last && now - this.last.at < SHARED_MEASUREMENT_MS) return this.last.result;
    const result = this.measureNow();
    this.last = { at: now, result };
    return result;
  }

  private async measureNow(): Promise<PartitionLag[]> {
    if (!this.admin) {
      this.admin = this.kafka.admin();
      await this.admin.connect();
    }
    const admin = this.admin;
    const perGroup = await Promise.all(this.groups.map(async ({ groupId, topics }) => {
      const committed = await admin.fetchOffsets({ groupId, topics });
      return Promise.all(topics.map(async (topic) => {
        const ends = await admin.fetchTopicOffsets(topic);
        const done = new Map((committed.find((c) => c.topic === topic)?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
        return ends.map((end) => {
          const from = done.get(end.partition) ?? -1;
          // No commit yet: everything from the low watermark on is waiting.
          const lag = Math.max(0, Number(end.high) - (from >= 0 ? from : Number(end.low)));
          return { groupId, topic, partition: end.partition, lag };
        });
      }));
    }));
    return perGroup.flat(2);
  }

  async close(): Promise<void> {
    this.last = undefined;
    await this.admin?.disconnect();
    this.admin = undefined;
  }
}

/** Monitors of the services running in this process (tests run several); the gauge reads them at scrape time. */
const monitors = new Set<ConsumerLagMonitor>();

/** Reports `monitor`'s groups as `switchyard_kafka_consumer_lag` until the returned function is called. */
export function exportConsumerLag(monitor: ConsumerLagMonitor): () => Promise<void> {
  metric('switchyard_kafka_consumer_lag', () => new Gauge({
    name: 'switchyard_kafka_consumer_lag',
    help: 'Records not yet consumed by the group (end offset minus committed offset), per topic and partition, as the broker reports them',
    labelNames: ['group', 'topic', 'partition'],
    async collect() {
      this.reset();
      for (const source of monitors) {
        // A broker that cannot answer leaves the series out of this scrape rather than failing /metrics.
        for (const { groupId, topic, partition, lag } of await source.measure().catch(() => [])) {
          this.set({ group: groupId, topic, partition: String(partition) }, lag);
        }
      }
    },
  }));
  monitors.add(monitor);
  return async () => {
    monitors.delete(monitor);
    await monitor.close();
  };
}
