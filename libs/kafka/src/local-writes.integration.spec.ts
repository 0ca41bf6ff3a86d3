import { randomUUID } from 'node:crypto';
import { freshNamespace, testBrokers, testKafka } from '../../../test/support/kafka-test-kit';
import { Collected } from '../../../test/support/collected';
import { rawTestKafka } from './testing';
import { ensureTopics } from './topic-admin';

interface Handled {
  partition: number;
  offset: number;
  value: string;
  /** Handed over by this process's producer (headers as written) rather than fetched (bytes). */
  handedOver: boolean;
}

/**
 * Against the real test broker: a consumer in the same process as the producer takes the records
 * it owns once each and in order, some of them handed over on acknowledgement. Its fetches wait up
 * to a second for a megabyte, so a write handed over is met again by the fetch only afterwards.
 */
describe('local writes with a real broker', () => {
  it('hands acknowledged records to the consumer once each, in order, and the fetch skips them', async () => {
    const kafka = testKafka();
    const topic = `${freshNamespace('local-writes')}.records`;
    await ensureTopics(kafka, [{ topic, numPartitions: 2 }]);
    const handled = new Collected<Handled>();
    const consumer = kafka.consumer({
      groupId: `local-writes-${randomUUID()}`,
      maxWaitTimeInMs: 1_000,
      minBytes: 1024 * 1024,
      localWrites: [topic],
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset }) => {
        for (const message of batch.messages)
          handled.add({
            partition: batch.partition,
            offset: Number(message.offset),
            value: String(message.value),
            handedOver: typeof message.headers?.via === 'string',
          });
        if (!batch.isEmpty()) resolveOffset(batch.lastOffset());
      },
    });
    const producer = kafka.producer();
    await producer.connect();
    // Another client's writes are not this process's producers': they come by fetch only.
    const elsewhere = rawTestKafka(testBrokers().split(',')).producer();
    await elsewhere.connect();
    const send = (value: string, partition: number) =>
      producer.send({ topic, messages: [{ value, partition, headers: { via: 'producer' } }] });
    try {
      for (const partition of [0, 1]) await send(`first ${partition}`, partition);
      await handled.waitFor(2, () => true, 20_000, 'first records');
      for (let i = 0; i < 20; i++) await send(`record ${i}`, i % 2);
      for (const partition of [0, 1])
        await elsewhere.send({
          topic,
          messages: [{ value: `last ${partition}`, partition, headers: { via: 'x' } }],
        });
      await handled.waitFor(2, (h) => h.value.startsWith('last'), 20_000, 'last records');

      for (const partition of [0, 1]) {
        const ofPartition = handled.items.filter((h) => h.partition === partition);
        expect(ofPartition.map((h) => h.offset)).toEqual(ofPartition.map((_, i) => i));
        expect(ofPartition.map((h) => h.value)).toEqual([
          `first ${partition}`,
          ...Array.from({ length: 10 }, (_, i) => `record ${2 * i + partition}`),
          `last ${partition}`,
        ]);
        expect(ofPartition.at(-1)?.handedOver).toBe(false);
      }
      expect(handled.items.filter((h) => h.handedOver).length).toBeGreaterThan(0);
    } finally {
      await producer.disconnect();
      await elsewhere.disconnect();
      await consumer.disconnect();
    }
  });
});
