import { freshNamespace, testKafka, TopicReader } from '../../../test/support/kafka-test-kit';
import { BatchingProducer, DEFAULT_BATCHING, OutgoingRecord } from './batching-producer';
import { ensureTopics } from './topic-admin';

/** Longer than the test may run: a send that waited for the linger could never be acknowledged in time. */
const LINGER_BEYOND_THE_TEST_MS = 10 * 60_000;

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Against the real test broker: batching waits only behind a request in flight, never for company. */
describe('BatchingProducer with a real broker', () => {
  it('writes a lone record without waiting for a second, and records sent behind a request in order', async () => {
    const kafka = testKafka();
    const topic = `${freshNamespace('idle-send')}.records`;
    await ensureTopics(kafka, [{ topic, numPartitions: 1 }]);
    const reader = await TopicReader.start<string>([topic]);
    const producer = kafka.producer();
    await producer.connect();
    const batching = new BatchingProducer(producer, {
      ...DEFAULT_BATCHING,
      lingerMs: LINGER_BEYOND_THE_TEST_MS,
      maxInFlight: 1,
    });
    const record = (value: string): OutgoingRecord => ({ topic, key: 'user', value: JSON.stringify(value) });
    try {
      await batching.send([record('alone')]);
      const [alone] = await reader.waitFor(1);
      expect(alone.value).toBe('alone');

      const inFlight = batching.send([record('in flight')]);
      await endOfTurn();
      const behind = [
        batching.send([record('behind 1')]),
        batching.send([record('behind 2'), record('behind 3')]),
      ];
      await Promise.all([inFlight, ...behind]);

      const read = await reader.waitFor(5);
      expect(read.map((r) => r.value)).toEqual(['alone', 'in flight', 'behind 1', 'behind 2', 'behind 3']);
      expect(read.map((r) => Number(r.offset))).toEqual([0, 1, 2, 3, 4]);
    } finally {
      await batching.drain();
      await producer.disconnect();
      await reader.stop();
    }
  });
});
