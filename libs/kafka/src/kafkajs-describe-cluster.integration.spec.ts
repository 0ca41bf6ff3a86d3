import { eventually, freshNamespace, testBrokers, testKafka } from '../../../test/support/kafka-test-kit';
import { rawTestKafka } from './testing';
import { ensureTopics } from './topic-admin';

/**
 * patches/kafkajs+2.2.4.patch, admin side: describeCluster (every service's broker probe, twice a
 * second) asks for the brokers alone. kafkajs sent its empty topic list as null, which asks for
 * every topic's metadata: an answer, and an allocation, that grew with the cluster. And it asks
 * once: an admin client refreshes its metadata before every request, and that refresh asked the
 * broker the very question describeCluster then asked again.
 */
describe('the patched kafkajs describeCluster', () => {
  it('gets an answer that does not grow with the topics of the cluster', async () => {
    const admin = rawTestKafka(testBrokers().split(',')).admin();
    const metadataAnswerBytes: number[] = [];
    admin.on(admin.events.REQUEST, ({ payload }) => {
      if (payload.apiName === 'Metadata') metadataAnswerBytes.push(payload.size);
    });
    await admin.connect();
    try {
      const answerBytes = async () => {
        metadataAnswerBytes.length = 0;
        const { brokers, controller } = await admin.describeCluster();
        expect(brokers.length).toBeGreaterThan(0);
        expect(controller).not.toBeNull();
        return metadataAnswerBytes.at(-1);
      };
      const before = await answerBytes();
      const ns = freshNamespace('describe');
      const topics = Array.from({ length: 20 }, (_, i) => `${ns}.t${i}`);
      // kafkajs's wait for leaders asks for the new topics' metadata and does not retry when a
      // broker busy with many topics answers UNKNOWN_TOPIC_OR_PARTITION; the topic list is asked
      // again until the broker knows them all, so an unpatched answer would have them.
      await admin.createTopics({
        topics: topics.map((topic) => ({ topic, numPartitions: 3 })),
        waitForLeaders: false,
      });
      await eventually(
        async () => {
          const known = new Set(await admin.listTopics());
          return topics.every((topic) => known.has(topic));
        },
        30_000,
        'the new topics in the broker metadata',
      );

      expect(await answerBytes()).toBe(before);
    } finally {
      await admin.disconnect();
    }
  });

  it('sends one Metadata request per call, and one per topic lookup', async () => {
    const admin = rawTestKafka(testBrokers().split(',')).admin();
    let metadataRequests = 0;
    admin.on(admin.events.REQUEST, ({ payload }) => {
      if (payload.apiName === 'Metadata') metadataRequests++;
    });
    await admin.connect();
    try {
      const topic = `${freshNamespace('describe-once')}.t`;
      // kafkajs's own wait for leaders fails when the broker does not know the new topic yet;
      // the services' creation waits that out.
      await ensureTopics(testKafka(), [{ topic, numPartitions: 2 }]);
      metadataRequests = 0;
      const { brokers } = await admin.describeCluster();
      expect(brokers.length).toBeGreaterThan(0);
      expect(metadataRequests).toBe(1);

      metadataRequests = 0;
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      expect(topics.map((t) => [t.name, t.partitions.length])).toEqual([[topic, 2]]);
      expect(metadataRequests).toBe(1);
    } finally {
      await admin.disconnect();
    }
  });
});
