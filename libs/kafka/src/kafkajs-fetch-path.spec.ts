import { createRequire } from 'node:module';
import { silentKafkajsLogger } from '../../../test/support/silent-kafkajs-logger';

/**
 * patches/kafkajs+2.2.4.patch, the work kafkajs does around every fetch. A delivery process reads
 * the deliveries topic and each retry tier, dozens of partitions, and at a low rate it fetches
 * about once per event, so what kafkajs builds per partition per fetch was most of what it
 * allocated. The patched code answers as before with less of it; these pin the answers.
 */
const load = createRequire(__filename);

type LongValue = { isNegative(): boolean; toString(): string };
const Long = load('kafkajs/src/utils/long') as { fromValue(value: unknown): LongValue };
const isInvalidOffset = load('kafkajs/src/consumer/offsetManager/isInvalidOffset') as (
  offset: unknown,
) => boolean;
const Batch = load('kafkajs/src/consumer/batch') as new (
  topic: string,
  fetchedOffset: string,
  partitionData: unknown,
) => { messages: { offset: string }[] };
const SubscriptionState = load('kafkajs/src/consumer/subscriptionState') as new () => {
  assign(assignment: { topic: string; partitions: number[] }[]): void;
  pause(topicPartitions: { topic: string; partitions: number[] }[]): void;
  assigned(): { topic: string; partitions: number[] }[];
  active(): { topic: string; partitions: number[] }[];
};
const Broker = load('kafkajs/src/broker') as new (options: unknown) => {
  lookupRequest: unknown;
  fetch(request: unknown): Promise<unknown>;
};
const ConsumerGroup = load('kafkajs/src/consumer/consumerGroup') as {
  prototype: {
    checkForStaleAssignment(this: unknown): void;
    generatePartitionsPerSubscribedTopic(): unknown;
  };
};

const record = (offset: string) => ({ offset, key: null, value: Buffer.from('{}'), headers: {} });

describe('kafkajs offsets without a BigInt each', () => {
  it('keeps the records at or after the fetched offset, in small and in 64-bit offsets', () => {
    const partition = (offsets: string[]) => ({
      partition: 0,
      highWatermark: '0',
      abortedTransactions: [],
      messages: offsets.map(record),
    });
    const offsetsOf = (fetched: string, offsets: string[]) =>
      new Batch('jobs', fetched, partition(offsets)).messages.map((m) => m.offset);

    expect(offsetsOf('10', ['8', '9', '10', '11'])).toEqual(['10', '11']);
    expect(offsetsOf('9', ['9', '10', '100'])).toEqual(['9', '10', '100']);
    const big = ['9007199254740991', '9007199254740992', '9007199254740993', '9223372036854775807'];
    expect(offsetsOf('9007199254740992', big)).toEqual(big.slice(1));
    expect(offsetsOf('100', ['99', '9007199254740993'])).toEqual(['9007199254740993']);
  });

  it('tells an invalid offset as before', () => {
    expect([undefined, null, '', '-1', '-2', '-9223372036854775808'].map(isInvalidOffset)).toEqual(
      Array(6).fill(true),
    );
    expect([0, '0', '1', '42', '9223372036854775807'].map(isInvalidOffset)).toEqual(Array(5).fill(false));
    expect(isInvalidOffset(Long.fromValue('-1'))).toBe(true);
    expect(isInvalidOffset(Long.fromValue('7'))).toBe(false);
  });

  it('lets a Long stand for itself, since none ever changes', () => {
    const offset = Long.fromValue('12');
    expect(Long.fromValue(offset)).toBe(offset);
    expect(Long.fromValue('12').toString()).toBe('12');
  });
});

describe('kafkajs subscription state', () => {
  it('answers the assignment in order, and the active partitions without the paused ones', () => {
    const state = new SubscriptionState();
    state.assign([{ topic: 'jobs', partitions: [2, 0, 1] }]);
    state.pause([{ topic: 'jobs', partitions: [1] }]);
    expect(state.assigned()).toEqual([{ topic: 'jobs', partitions: [0, 1, 2] }]);
    expect(state.active()).toEqual([{ topic: 'jobs', partitions: [0, 2] }]);
    expect(state.assigned()).toEqual([{ topic: 'jobs', partitions: [0, 1, 2] }]);
  });
});

describe('kafkajs fetch request', () => {
  const FETCH = 1;

  it("names each topic once, with all of that topic's partitions", async () => {
    let sentTopics: { topic: string; partitions: { partition: number }[] }[] = [];
    const broker = new Broker({
      connectionPool: { connectionTimeout: 1000, host: '127.0.0.1', port: 9092, send: async () => ({}) },
      logger: silentKafkajsLogger,
      versions: { [FETCH]: { minVersion: 0, maxVersion: 11 } },
    });
    broker.lookupRequest = () => (request: { topics: typeof sentTopics }) => {
      sentTopics = request.topics;
      return {};
    };
    const topics = ['jobs', 'jobs.retry-1m', 'jobs.retry-5m'].map((topic) => ({
      topic,
      partitions: [0, 1, 2, 3, 4, 5].map((partition) => ({ partition, fetchOffset: '0', maxBytes: 1024 })),
    }));

    await broker.fetch({ topics });

    expect(sentTopics.map((t) => t.topic).sort()).toEqual(['jobs', 'jobs.retry-1m', 'jobs.retry-5m']);
    for (const { partitions } of sentTopics)
      expect(partitions.map((p) => p.partition).sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('kafkajs stale-assignment check', () => {
  const metadataWith = (partitions: number[]) => ({
    topicMetadata: [{ topic: 'jobs', partitionMetadata: partitions.map((partitionId) => ({ partitionId })) }],
  });

  it('checks again once the metadata is refreshed, and throws when a partition appeared', () => {
    const brokerPool = { metadata: metadataWith([0, 1]) };
    const group = {
      topicsSubscribed: ['jobs'],
      cluster: {
        brokerPool,
        findTopicPartitionMetadata: () => brokerPool.metadata.topicMetadata[0].partitionMetadata,
      },
      partitionsPerSubscribedTopic: new Map([['jobs', [0, 1]]]),
      generatePartitionsPerSubscribedTopic: ConsumerGroup.prototype.generatePartitionsPerSubscribedTopic,
    };
    const check = () => ConsumerGroup.prototype.checkForStaleAssignment.call(group);

    expect(check).not.toThrow();
    expect(check).not.toThrow();
    brokerPool.metadata = metadataWith([0, 1, 2]);
    expect(check).toThrow('Topic has been updated');
  });
});
