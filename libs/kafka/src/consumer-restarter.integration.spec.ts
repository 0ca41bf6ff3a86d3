import pino from 'pino';
import type { ConsumerCrashEvent } from 'kafkajs';
import { eventually, freshNamespace, testKafka } from '../../../test/support/kafka-test-kit';
import { ConsumerRestarter } from './consumer-restarter';
import { ensureTopics } from './topic-admin';

/** Against the real test broker: a crash kafkajs gives up on, and the consumer reading on afterwards. */
describe('ConsumerRestarter with a real broker', () => {
  const kafka = testKafka();

  it('brings back a consumer kafkajs left stopped after a handler error, and every record is read', async () => {
    const topic = `${freshNamespace('restart')}.records`;
    await ensureTopics(kafka, [{ topic, numPartitions: 1 }]);
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: Array.from({ length: 10 }, (_, i) => ({ value: String(i) })) });
    await producer.disconnect();

    const consumer = kafka.consumer({ groupId: `${topic}.group`, maxWaitTimeInMs: 100 });
    const crashes: ConsumerCrashEvent['payload'][] = [];
    consumer.on(consumer.events.CRASH, ({ payload }) => crashes.push(payload));
    const read = new Set<string>();
    let failed = false;
    const restarter = new ConsumerRestarter(
      consumer,
      {
        autoCommit: false,
        eachMessage: async ({ message }) => {
          const value = message.value!.toString();
          // A programming error in a handler: kafkajs treats a TypeError as unrecoverable.
          if (value === '5' && !failed) {
            failed = true;
            throw new TypeError('cannot read properties of undefined');
          }
          read.add(value);
        },
      },
      topic,
      pino({ level: 'silent' }),
      { initialMs: 200, maxMs: 1_000 },
    );
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await restarter.run();

      await eventually(() => crashes.length > 0, 30_000, 'the crash');
      expect(crashes[0].restart).toBe(false);
      await eventually(() => read.size === 10, 30_000, 'every record read after the restart');
      expect([...read].sort()).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    } finally {
      await restarter.stop();
      await consumer.disconnect();
    }
  });
});
