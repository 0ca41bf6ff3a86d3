import pino from 'pino';
import type { KafkaClient } from './kafka-port';
import { startKafka } from './kafka-startup';
import { kafkajsGaveUpOn } from './testing';

const LEADER_NOT_AVAILABLE = 5;

/** A client whose admin's `connect` fails with each of `failures` in turn, then succeeds. */
function clientFailing(failures: Error[]) {
  const attempts = { connect: 0 };
  const admin = {
    connect: async () => {
      const failure = failures[attempts.connect++];
      if (failure) throw failure;
    },
    disconnect: async () => undefined,
    describeCluster: async () => ({ brokers: [] }),
    listTopics: async () => [],
    fetchTopicMetadata: async () => ({ topics: [] }),
  };
  return { kafka: { admin: () => admin } as unknown as KafkaClient, attempts };
}

function capture() {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { lines, logger };
}

/** kafkajs's error after its retries, with the lost connection as its cause. */
const brokersAway = () =>
  Object.assign(new Error('Connection error: connect ECONNREFUSED 127.0.0.1:9092'), {
    name: 'KafkaJSNumberOfRetriesExceeded',
    cause: Object.assign(new Error('Connection error: connect ECONNREFUSED 127.0.0.1:9092'), {
      name: 'KafkaJSConnectionError',
    }),
  });

/** Starts with no topics against `kafka`: what it logged, and how often it connected its clients. */
async function startLogging(kafka: KafkaClient) {
  const { lines, logger } = capture();
  const connect = jest.fn(async () => undefined);
  await startKafka({
    kafka,
    connection: { brokers: ['127.0.0.1:9092'] },
    topics: [],
    policy: { create: true },
    connect,
    logger,
  });
  return {
    logged: lines.map((l) => [pino.levels.labels[l.level], l.msg]),
    connects: connect.mock.calls.length,
  };
}

describe('startKafka', () => {
  it.each([
    ['brokers that are away', brokersAway, 'Kafka brokers do not answer; waiting for them before serving'],
    [
      'a cluster that answers but is still electing leaders',
      () => kafkajsGaveUpOn(LEADER_NOT_AVAILABLE),
      'Kafka brokers are not ready yet; waiting for them before serving',
    ],
  ])('waits for %s, saying so once, then connects', async (_, failure, warning) => {
    const { kafka, attempts } = clientFailing([failure(), failure()]);
    const { logged, connects } = await startLogging(kafka);
    // Two tries refused, then the third's connection check and its topic step.
    expect(attempts.connect).toBe(4);
    expect(connects).toBe(1);
    expect(logged).toEqual([
      ['warn', warning],
      ['info', 'Kafka brokers answer; starting'],
    ]);
  });

  it('gives up at once on an error waiting does not cure', async () => {
    const refused = Object.assign(new Error('SASL authentication failed'), {
      name: 'KafkaJSSASLAuthenticationError',
    });
    const { kafka, attempts } = clientFailing([refused]);
    const { logger } = capture();
    await expect(
      startKafka({
        kafka,
        connection: { brokers: ['127.0.0.1:9092'] },
        topics: [],
        policy: { create: true },
        connect: async () => undefined,
        logger,
      }),
    ).rejects.toThrow(/SASL authentication failed/);
    expect(attempts.connect).toBe(1);
  });
});
