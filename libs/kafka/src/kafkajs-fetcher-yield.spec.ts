import { createRequire } from 'node:module';
import { silentKafkajsLogger } from '../../../test/support/silent-kafkajs-logger';

/**
 * patches/kafkajs+2.2.4.patch: after a fetch of few records, kafkajs's fetch loop lets the work
 * its batch handler started run to its first I/O before it encodes and sends the next fetch
 * request. Delivery starts each webhook request from its handler through a chain of promises;
 * without the yield the next fetch request was encoded and written first, on the path of every
 * event at low rates. After a large fetch the next one goes at once, overlapping that work.
 */
const load = createRequire(__filename);
interface Batch {
  topic: string;
  partition: number;
  messages: unknown[];
}
const createFetcher = load('kafkajs/src/consumer/fetcher') as (options: object) => {
  start(): Promise<void>;
  stop(): Promise<void>;
};
const createWorkerQueue = load('kafkajs/src/consumer/workerQueue') as (options: object) => object;
const createWorker = load('kafkajs/src/consumer/worker') as (options: object) => object;

/** Many promise hops, as many as a handler's work may take before it writes. */
async function afterPromiseHops(hops: number, then: () => void): Promise<void> {
  for (let i = 0; i < hops; i++) await Promise.resolve();
  then();
}

/** What happens, in order, while a fetcher runs two fetches of `records` records each and a third, empty one. */
async function runFetches(records: number): Promise<string[]> {
  const happened: string[] = [];
  let fetches = 0;
  const handler = async (batch: Batch) => {
    happened.push(`handled ${batch.partition}`);
    void afterPromiseHops(50, () => happened.push(`sent on ${batch.partition}`));
  };
  const workerQueue = createWorkerQueue({ workers: [createWorker({ handler, workerId: 0 })] });
  let stop: () => Promise<void> = async () => undefined;
  const thirdFetch = new Promise<void>((resolve) => {
    const fetcher = createFetcher({
      nodeId: 1,
      workerQueue,
      partitionAssignments: new Map(),
      logger: silentKafkajsLogger,

      fetch: async (): Promise<Batch[]> => {
        fetches += 1;
        happened.push(`fetch ${fetches}`);
        if (fetches === 3) resolve();
        return fetches < 3 ? [{ topic: 't', partition: fetches, messages: new Array(records).fill({}) }] : [];
      },
    });
    stop = () => fetcher.stop();
    void fetcher.start();
  });
  await thirdFetch;
  await stop();
  await afterPromiseHops(60, () => undefined);
  return happened;
}

describe('kafkajs fetcher (patched)', () => {
  it('after a fetch of one record, sends the next fetch only once the work its handler started has run', async () => {
    expect(await runFetches(1)).toEqual([
      'fetch 1',
      'handled 1',
      'sent on 1',
      'fetch 2',
      'handled 2',
      'sent on 2',
      'fetch 3',
    ]);
  });

  it('after a fetch of many records, sends the next fetch at once', async () => {
    const happened = await runFetches(500);
    expect(happened.indexOf('fetch 2')).toBeLessThan(happened.indexOf('sent on 1'));
  });
});
