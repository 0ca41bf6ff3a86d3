import { freshNamespace, testBrokers, testKafka } from '../../../test/support/kafka-test-kit';
import { rawTestKafka } from './testing';
import { ensureTopics } from './topic-admin';

/** Topic creation and checking against the real test broker (one node, so replication 1). */
describe('ensureTopics', () => {
  const kafka = testKafka();

  it('creates topics with the configs and min.insync.replicas asked for', async () => {
    const topic = `${freshNamespace('admin')}.stream`;
    await ensureTopics(kafka, [{ topic, numPartitions: 2, configs: { 'retention.ms': '3600000' } }], {
      create: true,
      replicationFactor: 1,
      minInsyncReplicas: 1,
    });
    // The port's admin has no describeConfigs: the services never read configs back.
    const admin = rawTestKafka(testBrokers().split(',')).admin();
    await admin.connect();
    try {
      const { resources } = await admin.describeConfigs({
        resources: [{ type: 2, name: topic, configNames: ['retention.ms', 'min.insync.replicas'] }],
        includeSynonyms: false,
      });
      const configs = Object.fromEntries(
        resources[0].configEntries.map((e) => [e.configName, e.configValue]),
      );
      expect(configs).toEqual({ 'retention.ms': '3600000', 'min.insync.replicas': '1' });
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      expect(topics[0].partitions).toHaveLength(2);
    } finally {
      await admin.disconnect();
    }
  });

  it('without the right to create, names a missing topic and one with too few partitions, and accepts what is there', async () => {
    const ns = freshNamespace('verify');
    const existing = `${ns}.existing`;
    await ensureTopics(kafka, [{ topic: existing, numPartitions: 2 }]);
    const verify = { create: false };
    await expect(
      ensureTopics(kafka, [{ topic: existing, numPartitions: 2 }], verify),
    ).resolves.toBeUndefined();
    await expect(ensureTopics(kafka, [{ topic: existing, numPartitions: 3 }], verify)).rejects.toThrow(
      `KAFKA_CREATE_TOPICS=false and topic ${existing} has 2 partitions; it needs at least 3`,
    );
    await expect(
      ensureTopics(
        kafka,
        [
          { topic: existing, numPartitions: 2 },
          { topic: `${ns}.missing`, numPartitions: 4, configs: { 'cleanup.policy': 'compact' } },
        ],
        verify,
      ),
    ).rejects.toThrow(
      `KAFKA_CREATE_TOPICS=false and topic ${ns}.missing does not exist; create it with 4 partitions and cleanup.policy=compact`,
    );
  });

  it('names KAFKA_REPLICATION_FACTOR when the cluster has fewer brokers', async () => {
    await expect(
      ensureTopics(kafka, [{ topic: `${freshNamespace('rf')}.x` }], { create: true, replicationFactor: 3 }),
    ).rejects.toThrow(/KAFKA_REPLICATION_FACTOR/);
  });
});
