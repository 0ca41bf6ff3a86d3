import type { Admin, Kafka } from 'kafkajs';
import { ConsumerLagMonitor } from './consumer-lag';

/** A Kafka whose admin client answers offsets from tables, or never (`hang`). */
function fakeKafka(
  answers:
    | {
        committed: Record<string, Record<number, number>>;
        ends: Record<string, Array<{ low: number; high: number }>>;
      }
    | 'hang',
): Pick<Kafka, 'admin'> {
  const never = () => new Promise<never>(() => undefined);
  const admin = {
    connect: async () => undefined,
    disconnect: async () => undefined,
    fetchOffsets:
      answers === 'hang'
        ? never
        : async ({ topics }: { topics: string[] }) =>
            topics.map((topic) => ({
              topic,
              partitions: Object.entries(answers.committed[topic] ?? {}).map(([partition, offset]) => ({
                partition: Number(partition),
                offset: String(offset),
              })),
            })),
    fetchTopicOffsets:
      answers === 'hang'
        ? never
        : async (topic: string) =>
            answers.ends[topic].map(({ low, high }, partition) => ({
              partition,
              low: String(low),
              high: String(high),
              offset: String(high),
            })),
  };
  return { admin: () => admin as unknown as Admin };
}

describe('ConsumerLagMonitor', () => {
  it("reports end offset minus the group's commit per partition, and everything from the low watermark where it never committed", async () => {
    const kafka = fakeKafka({
      committed: { events: { 0: 40 } },
      ends: {
        events: [
          { low: 0, high: 50 },
          { low: 10, high: 25 },
        ],
      },
    });
    const monitor = new ConsumerLagMonitor(kafka, [{ groupId: 'router.events', topics: ['events'] }]);
    expect(await monitor.measure()).toEqual([
      { groupId: 'router.events', topic: 'events', partition: 0, lag: 10 },
      { groupId: 'router.events', topic: 'events', partition: 1, lag: 15 },
    ]);
    await monitor.close();
  });

  it('gives up when the broker does not answer, so a scrape never waits on kafkajs retries', async () => {
    const monitor = new ConsumerLagMonitor(
      fakeKafka('hang'),
      [{ groupId: 'delivery', topics: ['deliveries'] }],
      20,
    );
    await expect(monitor.measure()).rejects.toThrow('the broker did not report offsets within 20 ms');
    await monitor.close();
  });
});
