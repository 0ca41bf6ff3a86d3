import { KafkaJSNonRetriableError } from 'kafkajs';
import type { KafkaClient } from './kafka-port';
import { kafkajsGaveUpOn as gaveUpOn } from './testing';
import { ensureTopics, retryTransient } from './topic-admin';

const LEADER_NOT_AVAILABLE = 5;
const UNKNOWN_TOPIC_OR_PARTITION = 3;
const TOPIC_AUTHORIZATION_FAILED = 29;

/** A client whose admin's `listTopics` fails with each of `failures` in turn, then answers. */
function clientFailing(failures: Error[]) {
  const calls = { listTopics: 0, created: [] as string[] };
  const admin = {
    connect: async () => undefined,
    disconnect: async () => undefined,
    listTopics: async () => {
      const failure = failures[calls.listTopics++];
      if (failure) throw failure;
      return calls.created;
    },
    createTopics: async ({ topics }: { topics: { topic: string }[] }) => {
      calls.created.push(...topics.map((t) => t.topic));
      return true;
    },
    fetchTopicMetadata: async ({ topics }: { topics: string[] }) => ({
      topics: topics.map((name) => ({ name, partitions: [{ partitionId: 0, leader: 1 }] })),
    }),
  };
  return { kafka: { admin: () => admin } as unknown as KafkaClient, calls };
}

describe('ensureTopics', () => {
  it('waits out a leader election that kafkajs gave up on, then creates the topics', async () => {
    const { kafka, calls } = clientFailing([gaveUpOn(LEADER_NOT_AVAILABLE), gaveUpOn(LEADER_NOT_AVAILABLE)]);
    await ensureTopics(kafka, [{ topic: 'events' }]);
    expect(calls.listTopics).toBe(3);
    expect(calls.created).toEqual(['events']);
  });

  it('fails at once on an answer that waiting does not change', async () => {
    const { kafka, calls } = clientFailing([gaveUpOn(TOPIC_AUTHORIZATION_FAILED)]);
    await expect(ensureTopics(kafka, [{ topic: 'events' }])).rejects.toThrow(KafkaJSNonRetriableError);
    expect(calls.listTopics).toBe(1);
    expect(calls.created).toEqual([]);
  });
});

describe('retryTransient', () => {
  it('runs a step again while kafkajs gave up on a topic the broker does not know yet', async () => {
    const failures = [gaveUpOn(UNKNOWN_TOPIC_OR_PARTITION)];
    let runs = 0;
    const step = async () => {
      const failure = failures[runs++];
      if (failure) throw failure;
      return 'started';
    };
    await expect(retryTransient(step)).resolves.toBe('started');
    expect(runs).toBe(2);
  });
});
