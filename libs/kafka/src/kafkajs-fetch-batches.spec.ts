import { createRequire } from 'node:module';

/**
 * patches/kafkajs+2.2.4.patch, consumer side: a fetch answers every partition it asked for, and
 * kafkajs made a batch of each, empty or not, and ran every one through its worker queue only to
 * drop the empty ones. A delivery process subscribed to the deliveries topic and its retry tiers
 * did that for dozens of quiet partitions on every fetch. The patched fetch makes batches only of
 * partitions that answered records. Drives the real method with a fake broker.
 */
const load = createRequire(__filename);
type Batch = { partition: number; messages: unknown[]; isEmptyDueToFiltering(): boolean };
type GroupClass = { prototype: { fetch(this: unknown, nodeId: number): Promise<Batch[]> } };
const ConsumerGroup = load('kafkajs/src/consumer/consumerGroup') as GroupClass;

const record = (offset: string, isControlRecord = false) => ({
  offset,
  key: null,
  value: Buffer.from('{}'),
  headers: {},
  isControlRecord,
});

const answer = (partition: number, messages: unknown[]) => ({
  partition,
  highWatermark: String(messages.length),
  abortedTransactions: [],
  preferredReadReplica: -1,
  messages,
});

/** A consumer group assigned partitions 0-2 of `jobs`, whose broker answers `partitions`. */
function groupAnswering(partitions: ReturnType<typeof answer>[]) {
  const assigned = [0, 1, 2];
  return {
    cluster: {
      refreshMetadataIfNecessary: async () => undefined,
      findBroker: async () => ({ fetch: async () => ({ responses: [{ topicName: 'jobs', partitions }] }) }),
    },
    checkForStaleAssignment: () => undefined,
    subscriptionState: { assigned: () => [{ topic: 'jobs', partitions: assigned }], isPaused: () => false },
    filterPartitionsByNode: (_nodeId: number, topicPartitions: unknown) => topicPartitions,
    seekOffsets: async () => undefined,
    seekOffset: { has: () => false },
    offsetManager: {
      committedOffsets: () => ({ jobs: { 0: '0', 1: '0', 2: '0' } }),
      nextOffset: () => ({ toString: () => '0' }),
    },
    getActiveTopicPartitions: () => ({ jobs: new Set(assigned) }),
    preferredReadReplicasPerTopicPartition: {},
    recoverFromFetch: async (error: Error) => {
      throw error;
    },
  };
}

describe('kafkajs consumer group fetch', () => {
  it('makes a batch only of the partitions that answered records', async () => {
    const group = groupAnswering([answer(0, []), answer(1, [record('0'), record('1')]), answer(2, [])]);
    const batches = await ConsumerGroup.prototype.fetch.call(group, 1);
    expect(batches.map((batch) => [batch.partition, batch.messages.length])).toEqual([[1, 2]]);
  });

  it('keeps a partition that answered only transaction markers, so its position moves past them', async () => {
    const group = groupAnswering([answer(0, [record('0', true)]), answer(1, []), answer(2, [])]);
    const batches = await ConsumerGroup.prototype.fetch.call(group, 1);
    expect(batches.map((batch) => [batch.partition, batch.isEmptyDueToFiltering()])).toEqual([[0, true]]);
  });
});
