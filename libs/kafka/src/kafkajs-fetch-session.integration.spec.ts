import { createRequire } from 'node:module';
import type { Consumer, Producer } from 'kafkajs';
import { eventually, freshNamespace, testBrokers, testKafka } from '../../../test/support/kafka-test-kit';
import { rawTestKafka } from './testing';
import { ensureTopics } from './topic-admin';

/**
 * patches/kafkajs+2.2.4.patch, incremental fetch sessions: a consumer names only the partitions
 * whose fetch offset changed, and the broker answers only the partitions with records. These run
 * the patched consumer against the broker and check that what it reads is exactly what a
 * sessionless consumer reads: every record once, in order, through pauses, seeks and a session
 * the broker no longer knows.
 */
type SessionPrototype = {
  request(this: { id: number; epoch: number }, topics: unknown): unknown;
  answered(this: unknown, exchange: unknown, response: { errorCode: number }): boolean;
};
const FetchSession = createRequire(__filename)('kafkajs/src/broker/fetchSession') as {
  prototype: SessionPrototype;
};

const TOPICS = 3;
const PARTITIONS = 8;

describe('the patched kafkajs fetch session', () => {
  let producer: Producer;
  let consumer: Consumer;
  let topics: string[];
  /** topic/partition → values read, in the order read */
  const read = new Map<string, string[]>();
  const fetchAnswerBytes: number[] = [];

  const readValues = (topic: string, partition: number) => read.get(`${topic}/${partition}`) ?? [];
  const readCount = () => [...read.values()].reduce((sum, values) => sum + values.length, 0);

  /** Sends `count` records to each partition of each topic, numbered from `from`. */
  const sendWave = async (from: number, count: number) => {
    for (const topic of topics)
      await producer.send({
        topic,
        messages: Array.from({ length: PARTITIONS * count }, (_, i) => ({
          partition: i % PARTITIONS,
          value: String(from + Math.floor(i / PARTITIONS)),
        })),
      });
  };
  const numbered = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => String(from + i));

  beforeAll(async () => {
    const kafka = rawTestKafka(testBrokers().split(','));
    const ns = freshNamespace('fetch-session');
    topics = Array.from({ length: TOPICS }, (_, i) => `${ns}.t${i}`);
    // kafkajs's own wait for leaders fails when the broker does not know a new topic yet.
    await ensureTopics(
      testKafka(),
      topics.map((topic) => ({ topic, numPartitions: PARTITIONS })),
    );

    producer = kafka.producer();
    await producer.connect();
    consumer = kafka.consumer({ groupId: `${ns}.group`, maxWaitTimeInMs: 100 });
    consumer.on(consumer.events.REQUEST, ({ payload }) => {
      if (payload.apiName === 'Fetch') fetchAnswerBytes.push(payload.size);
    });
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        const key = `${topic}/${partition}`;
        read.set(key, [...(read.get(key) ?? []), String(message.value)]);
      },
    });
  });

  afterAll(async () => {
    await consumer?.disconnect();
    await producer?.disconnect();
  });

  it('reads every record once and in order, and idle fetches answer no partition', async () => {
    await sendWave(0, 5);
    await eventually(() => readCount() === TOPICS * PARTITIONS * 5, 30_000, 'the first wave read');
    await sendWave(5, 5);
    await eventually(() => readCount() === TOPICS * PARTITIONS * 10, 30_000, 'the second wave read');

    for (const topic of topics)
      for (let partition = 0; partition < PARTITIONS; partition++)
        expect(readValues(topic, partition)).toEqual(numbered(0, 10));

    // An answer that names every partition, each with its header, is hundreds of bytes; in the
    // session an idle fetch's answer names none.
    const answersBefore = fetchAnswerBytes.length;
    await eventually(() => fetchAnswerBytes.length > answersBefore + 2, 30_000, 'idle fetches');
    const idleAnswer = Math.min(...fetchAnswerBytes.slice(answersBefore));
    expect(idleAnswer).toBeLessThan(TOPICS * PARTITIONS * 10);
  });

  it('reads a paused topic again from where it stopped once resumed, and a seek from its offset', async () => {
    const [paused, sought] = topics;
    consumer.pause([{ topic: paused }]);
    await sendWave(10, 3);
    const allRead = (topic: string, count: number) =>
      Array.from(
        { length: PARTITIONS },
        (_, partition) => readValues(topic, partition).length === count,
      ).every(Boolean);
    await eventually(
      () => topics.slice(1).every((topic) => allRead(topic, 13)),
      30_000,
      'the other topics read',
    );
    for (let partition = 0; partition < PARTITIONS; partition++)
      expect(readValues(paused, partition)).toHaveLength(10);

    consumer.resume([{ topic: paused }]);
    await eventually(() => allRead(paused, 13), 30_000, 'the resumed topic read');
    consumer.seek({ topic: sought, partition: 2, offset: '4' });
    await eventually(
      () => readValues(sought, 2).length === 13 + 9,
      30_000,
      'the partition read again from offset 4',
    );
    await sendWave(13, 2);
    await eventually(() => readCount() === TOPICS * PARTITIONS * 15 + 9, 30_000, 'the last wave read');

    for (const topic of topics)
      for (let partition = 0; partition < PARTITIONS; partition++) {
        const again = topic === sought && partition === 2 ? numbered(4, 13) : [];
        const expected = [...numbered(0, 13), ...again, ...numbered(13, 15)];
        expect(readValues(topic, partition)).toEqual(expected);
      }
  });

  it('loses and repeats nothing when the broker no longer knows the session', async () => {
    const { request, answered } = FetchSession.prototype;
    let sessionsLost = 0;
    const sabotage = [
      (session: { id: number }) => (session.id = 0x7fff_0000), // FETCH_SESSION_ID_NOT_FOUND
      (session: { epoch: number }) => (session.epoch += 1000), // INVALID_FETCH_SESSION_EPOCH
    ];
    jest.spyOn(FetchSession.prototype, 'request').mockImplementation(function (
      this: { id: number; epoch: number },
      t,
    ) {
      if (this.epoch > 0 && sabotage.length > 0) sabotage.shift()!(this);
      return request.call(this, t);
    });
    jest.spyOn(FetchSession.prototype, 'answered').mockImplementation(function (
      this: unknown,
      exchange,
      response,
    ) {
      const lost = answered.call(this, exchange, response);
      if (lost) sessionsLost++;
      return lost;
    });
    try {
      await eventually(() => sessionsLost === 2, 30_000, 'both session errors answered');
      await sendWave(15, 3);
      await eventually(
        () => readCount() === TOPICS * PARTITIONS * 18 + 9,
        30_000,
        'the wave after the errors read',
      );
    } finally {
      jest.restoreAllMocks();
    }

    for (const topic of topics)
      for (let partition = 0; partition < PARTITIONS; partition++)
        expect(readValues(topic, partition).slice(-5)).toEqual(numbered(13, 18));
    expect(readCount()).toBe(TOPICS * PARTITIONS * 18 + 9);
  });
});
