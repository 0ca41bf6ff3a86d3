import { Gauge, metric } from '@switchyard/telemetry';
import { KafkaAdmin, KafkaClient } from './kafka-port';

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
 * A measurement the broker does not answer within this long fails: kafkajs would retry for tens
 * of seconds, and a scrape that waits past Prometheus's timeout loses every other metric too.
 */
const DEFAULT_MEASUREMENT_TIMEOUT_MS = 2000;

/**
 * Consumer lag as the broker sees it, for the groups a service runs: so no separate exporter is
 * needed. The figure is the group's (every instance's), read when Prometheus scrapes, so every
 * replica reports the same series; aggregate them with max, not sum.
 */
export class ConsumerLagMonitor {
  private client: KafkaAdmin | undefined;
  private connecting: Promise<KafkaAdmin> | undefined;
  private last: { at: number; result: Promise<PartitionLag[]> } | undefined;

  constructor(
    private readonly kafka: Pick<KafkaClient, 'admin'>,
    readonly groups: readonly ConsumedTopics[],
    private readonly timeoutMs = DEFAULT_MEASUREMENT_TIMEOUT_MS,
  ) {}

  /** The lag of every partition of the groups' topics; rejects when the broker does not answer in time. */
  measure(): Promise<PartitionLag[]> {
    const now = Date.now();
    if (this.last && now - this.last.at < SHARED_MEASUREMENT_MS) return this.last.result;
    const result = withTimeout(this.measureNow(), this.timeoutMs);
    this.last = { at: now, result };
    return result;
  }

  private async measureNow(): Promise<PartitionLag[]> {
    const admin = await this.connectedAdmin();
    const perGroup = await Promise.all(
      this.groups.map(async ({ groupId, topics }) => {
        const committed = await admin.fetchOffsets({ groupId, topics });
        return Promise.all(
          topics.map(async (topic) => {
            const ends = await admin.fetchTopicOffsets(topic);
            const done = new Map(
              (committed.find((c) => c.topic === topic)?.partitions ?? []).map((p) => [
                p.partition,
                Number(p.offset),
              ]),
            );
            return ends.map((end) => {
              const from = done.get(end.partition) ?? -1;
              // No commit yet: everything from the low watermark on is waiting.
              const lag = Math.max(0, Number(end.high) - (from >= 0 ? from : Number(end.low)));
              return { groupId, topic, partition: end.partition, lag };
            });
          }),
        );
      }),
    );
    return perGroup.flat(2);
  }

  /** One admin client, connected once; a failed connection is tried again at the next measurement. */
  private connectedAdmin(): Promise<KafkaAdmin> {
    this.connecting ??= (async () => {
      const admin = (this.client = this.kafka.admin());
      await admin.connect();
      return admin;
    })().catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    return this.connecting;
  }

  /** Disconnects at once, even from a connection still being made (a broker down at shutdown). */
  async close(): Promise<void> {
    const client = this.client;
    this.last = this.connecting = this.client = undefined;
    await client?.disconnect();
  }
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the broker did not report offsets within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/** Monitors of the services running in this process (tests run several); the gauge reads them at scrape time. */
const monitors = new Set<ConsumerLagMonitor>();

/** Reports `monitor`'s groups as `switchyard_kafka_consumer_lag` until the returned function is called. */
export function exportConsumerLag(monitor: ConsumerLagMonitor): () => Promise<void> {
  metric(
    'switchyard_kafka_consumer_lag',
    () =>
      new Gauge({
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
      }),
  );
  monitors.add(monitor);
  return async () => {
    monitors.delete(monitor);
    await monitor.close();
  };
}
