import { eventually, freshNamespace, testBrokers } from '../../../test/support/kafka-test-kit';
import { rawTestKafka } from './testing';

/**
 * patches/kafkajs+2.2.4.patch, admin side: describeCluster (every service's broker probe, twice a
 * second) asks for the brokers alone. kafkajs sent its empty topic list as null, which asks for
 * every topic's metadata: an answer, and an allocation, that grew with the cluster.
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
});
