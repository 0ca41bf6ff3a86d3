import { createRequire } from 'node:module';

/**
 * patches/kafkajs+2.2.4.patch, producer side: kafkajs's sendMessages once skipped, on a retry,
 * every broker that had answered an earlier attempt, so the messages of a dead leader's partition
 * that moved to such a broker were never written while the send resolved (acknowledged events
 * went missing when a broker of three was SIGKILLed). These drive the real
 * sendMessages with a fake cluster, so the move happens on every run.
 */
const load = createRequire(__filename);
type Message = { key: string | null; value: string; partition?: number };
type Partitioner = (args: { topic: string; partitionMetadata: unknown[]; message: Message }) => number;
type SendMessages = (
  deps: Record<string, unknown>,
) => (args: {
  acks: number;
  timeout: number;
  topicMessages: { topic: string; messages: Message[] }[];
}) => Promise<unknown[]>;
const createSendMessages = load('kafkajs/src/producer/sendMessages') as SendMessages;
const createRetry = load('kafkajs/src/retry') as (options: Record<string, number>) => unknown;
const { KafkaJSConnectionError } = load('kafkajs/src/errors') as {
  KafkaJSConnectionError: new (message: string) => Error;
};

const TOPIC = 'events';
const NOT_LEADER = 6;
const parseProduceAnswer = load('kafkajs/src/protocol/requests/produce/parseResponse') as (
  answer: unknown,
) => Promise<unknown>;

interface ProduceRequest {
  topicData: { topic: string; partitions: { partition: number; messages: Message[] }[] }[];
}

/**
 * Two brokers leading one partition each. Broker 2 refuses its first request as a dead broker
 * would; the metadata refreshed after that failure names broker 1 leader of both partitions.
 */
function clusterWhereALeaderDies() {
  const leaders: Record<number, number> = { 0: 1, 1: 2 };
  const written: { broker: number; partition: number; values: string[] }[] = [];
  const broker = (nodeId: number) => ({
    nodeId,
    produce: async ({ topicData }: ProduceRequest) => {
      if (nodeId === 2) throw new KafkaJSConnectionError('Connection error: connect ECONNREFUSED');
      const partitions = topicData[0].partitions.map(({ partition, messages }) => {
        written.push({ broker: nodeId, partition, values: messages.map((m) => m.value) });
        return { partition, errorCode: 0, baseOffset: '0', logAppendTime: '-1', logStartOffset: '0' };
      });
      return { topics: [{ topicName: TOPIC, partitions }] };
    },
  });
  const brokers: Record<number, ReturnType<typeof broker>> = { 1: broker(1), 2: broker(2) };
  const cluster = {
    targetTopics: new Set<string>(),
    targetsAll: () => false,
    addMultipleTargetTopics: async () => undefined,
    metadataNeedsRefresh: () => true,
    refreshMetadataIfNecessary: async () => undefined,
    connectedBroker: () => undefined,
    refreshMetadata: async () => {
      leaders[1] = 1;
    },
    isConnected: () => true,
    removeBroker: () => undefined,
    findTopicPartitionMetadata: () =>
      [0, 1].map((partitionId) => ({ partitionId, leader: leaders[partitionId] })),
    findLeaderForPartitions: (_topic: string, partitions: string[]) => {
      const byLeader: Record<number, number[]> = {};
      for (const p of partitions.map(Number)) (byLeader[leaders[p]] ??= []).push(p);
      return byLeader;
    },
    findBroker: async ({ nodeId }: { nodeId: string }) => brokers[Number(nodeId)],
  };
  return { cluster, written };
}

/**
 * One broker leading both partitions, whose first answer refuses partition 1 (its leadership is
 * moving) and writes partition 0, parsed as kafkajs parses a produce answer.
 */
function clusterWhereOnePartitionIsRefused() {
  const written: { partition: number; values: string[] }[] = [];
  let answers = 0;
  const broker = {
    nodeId: 1,
    produce: async ({ topicData }: ProduceRequest) => {
      const refuse = answers++ === 0;
      const partitions = topicData[0].partitions.map(({ partition, messages }) => {
        if (refuse && partition === 1)
          return { partition, errorCode: NOT_LEADER, baseOffset: '-1', logAppendTime: '-1' };
        written.push({ partition, values: messages.map((m) => m.value) });
        return { partition, errorCode: 0, baseOffset: '0', logAppendTime: '-1' };
      });
      return parseProduceAnswer({ topics: [{ topicName: TOPIC, partitions }] });
    },
  };
  const cluster = {
    targetTopics: new Set<string>(),
    targetsAll: () => false,
    addMultipleTargetTopics: async () => undefined,
    metadataNeedsRefresh: () => true,
    refreshMetadataIfNecessary: async () => undefined,
    connectedBroker: () => undefined,
    refreshMetadata: async () => undefined,
    isConnected: () => true,
    removeBroker: () => undefined,
    findTopicPartitionMetadata: () => [0, 1].map((partitionId) => ({ partitionId, leader: 1 })),
    findLeaderForPartitions: (_topic: string, partitions: string[]) => ({ 1: partitions.map(Number) }),
    findBroker: async () => broker,
  };
  return { cluster, written };
}

/**
 * A producer's usual case: its topic targeted, the metadata fresh, the leader connected. The lock,
 * the refresh and the lookup behind those checks throw, so a send that still awaited one fails.
 */
function clusterWithNothingToDo() {
  const written: { partition: number; values: string[] }[] = [];
  const broker = {
    nodeId: 1,
    produce: async ({ topicData }: ProduceRequest) => {
      const partitions = topicData[0].partitions.map(({ partition, messages }) => {
        written.push({ partition, values: messages.map((m) => m.value) });
        return { partition, errorCode: 0, baseOffset: '0', logAppendTime: '-1' };
      });
      return parseProduceAnswer({ topics: [{ topicName: TOPIC, partitions }] });
    },
  };
  const unexpected = (name: string) => async () => {
    throw new Error(`${name} called with nothing to do`);
  };
  const cluster = {
    targetTopics: new Set<string>([TOPIC]),
    targetsAll: () => true,
    addMultipleTargetTopics: unexpected('addMultipleTargetTopics'),
    metadataNeedsRefresh: () => false,
    refreshMetadataIfNecessary: unexpected('refreshMetadataIfNecessary'),
    refreshMetadata: unexpected('refreshMetadata'),
    isConnected: () => true,
    removeBroker: () => undefined,
    findTopicPartitionMetadata: () => [0, 1].map((partitionId) => ({ partitionId, leader: 1 })),
    findLeaderForPartitions: (_topic: string, partitions: string[]) => ({ 1: partitions.map(Number) }),
    connectedBroker: () => broker,
    findBroker: unexpected('findBroker'),
  };
  return { cluster, written };
}

type SequenceChange = { topic: string; partition: number; change: number };

function send(
  cluster: unknown,
  partitioner: Partitioner,
  messages: Message[],
  sequenceChanges: SequenceChange[] = [],
): Promise<unknown[]> {
  const quiet = () => undefined;
  const eosManager = {
    isInitialized: () => true,
    acquireBrokerLock: async () => undefined,
    releaseBrokerLock: async () => undefined,
    isTransactional: () => false,
    getSequence: () => 0,
    updateSequence: (topic: string, partition: number, change: number) =>
      sequenceChanges.push({ topic, partition, change }),
    getProducerId: () => -1,
    getProducerEpoch: () => 0,
  };
  const sendMessages = createSendMessages({
    logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    cluster,
    partitioner,
    eosManager,
    retrier: createRetry({ retries: 3, initialRetryTime: 1, maxRetryTime: 5 }),
  });
  return sendMessages({ acks: -1, timeout: 1000, topicMessages: [{ topic: TOPIC, messages }] });
}

describe('kafkajs produce retry (patched)', () => {
  it('sends a dead leader’s partition to its new leader even when that broker answered the first attempt', async () => {
    const { cluster, written } = clusterWhereALeaderDies();
    const messages = [
      { key: 'a', value: 'to-0', partition: 0 },
      { key: 'b', value: 'to-1', partition: 1 },
    ];
    const metadata = await send(cluster, ({ message }) => message.partition!, messages);

    expect(written).toEqual([
      { broker: 1, partition: 0, values: ['to-0'] },
      { broker: 1, partition: 1, values: ['to-1'] },
    ]);
    expect(metadata).toHaveLength(2);
  });

  it('keeps each message in the partition it was first given, so a retry neither skips nor repeats one', async () => {
    const { cluster, written } = clusterWhereALeaderDies();
    let next = 0;
    // kafkajs's round-robin for keyless messages: a second pass would deal them out differently.
    const roundRobin: Partitioner = () => next++ % 2;
    await send(
      cluster,
      roundRobin,
      ['m0', 'm1', 'm2'].map((value) => ({ key: null, value })),
    );

    expect(written).toEqual([
      { broker: 1, partition: 0, values: ['m0', 'm2'] },
      { broker: 1, partition: 1, values: ['m1'] },
    ]);
  });

  it('writes without the target-topic lock, the metadata refresh or the broker lookup when none is needed', async () => {
    const { cluster, written } = clusterWithNothingToDo();
    const messages = ['m0', 'm1', 'm2', 'm3'].map((value, i) => ({ key: null, value, partition: i % 2 }));
    const metadata = await send(cluster, ({ message }) => message.partition!, messages);

    expect(written).toEqual([
      { partition: 0, values: ['m0', 'm2'] },
      { partition: 1, values: ['m1', 'm3'] },
    ]);
    expect(metadata).toHaveLength(2);
  });

  it('sends again only the partitions an answer refused, not those it wrote', async () => {
    const { cluster, written } = clusterWhereOnePartitionIsRefused();
    const sequenceChanges: SequenceChange[] = [];
    const messages = [
      { key: 'a', value: 'to-0', partition: 0 },
      { key: 'b', value: 'to-1', partition: 1 },
    ];
    const metadata = await send(cluster, ({ message }) => message.partition!, messages, sequenceChanges);

    expect(written).toEqual([
      { partition: 0, values: ['to-0'] },
      { partition: 1, values: ['to-1'] },
    ]);
    expect(metadata).toEqual([
      expect.objectContaining({ topicName: TOPIC, partition: 0, errorCode: 0 }),
      expect.objectContaining({ topicName: TOPIC, partition: 1, errorCode: 0 }),
    ]);
    // An idempotent producer's sequence moves back for the refused partition alone.
    expect(sequenceChanges.filter(({ change }) => change < 0)).toEqual([
      { topic: TOPIC, partition: 1, change: -1 },
    ]);
  });

  it('names in each partition’s answer the messages written there, in order, across a retry', async () => {
    const { cluster } = clusterWhereOnePartitionIsRefused();
    const messages = [
      { key: 'a', value: 'first to 0', partition: 0 },
      { key: 'b', value: 'first to 1', partition: 1 },
      { key: 'c', value: 'second to 0', partition: 0 },
    ];
    const answers = (await send(cluster, ({ message }) => message.partition!, messages)) as {
      partition: number;
      messages: Message[];
    }[];

    const byPartition = Object.fromEntries(answers.map((a) => [a.partition, a.messages.map((m) => m.value)]));
    expect(byPartition).toEqual({ 0: ['first to 0', 'second to 0'], 1: ['first to 1'] });
  });
});
