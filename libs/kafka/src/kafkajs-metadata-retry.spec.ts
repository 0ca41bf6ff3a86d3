import { createRequire } from 'node:module';

/**
 * patches/kafkajs+2.2.4.patch, metadata side: when every broker failed a metadata request (timeouts
 * on a stalled machine), kafkajs's cluster.metadata() resolved with null, and admin.describeCluster
 * died with "Cannot destructure property 'brokers' … as it is null" (a delivery start-up under
 * load). The patched metadata() retries instead. Drives the real method with a fake broker pool.
 */
const load = createRequire(__filename);
type Metadata = { brokers: { nodeId: number }[] };
type ClusterClass = { prototype: { metadata(this: unknown, args: { topics: string[] }): Promise<Metadata> } };
const Cluster = load('kafkajs/src/cluster') as ClusterClass;
const createRetry = load('kafkajs/src/retry') as (options: Record<string, number>) => unknown;

const ANSWER: Metadata = { brokers: [{ nodeId: 1 }] };

/** A broker pool whose every broker fails the first `failures` rounds, as kafkajs's withBroker reports it: null. */
function poolFailing(failures: number) {
  let rounds = 0;
  return {
    metadataNeedsRefresh: () => false,
    withBroker: async (
      callback: (args: { broker: { metadata: () => Promise<Metadata> } }) => Promise<Metadata>,
    ) => (rounds++ < failures ? null : callback({ broker: { metadata: async () => ANSWER } })),
    rounds: () => rounds,
  };
}

const clusterWith = (brokerPool: ReturnType<typeof poolFailing>) => ({
  brokerPool,
  retrier: createRetry({ retries: 5, initialRetryTime: 1, maxRetryTime: 5 }),
});

describe('kafkajs cluster.metadata when no broker answers', () => {
  it('asks again instead of resolving with null', async () => {
    const pool = poolFailing(2);
    await expect(Cluster.prototype.metadata.call(clusterWith(pool), { topics: [] })).resolves.toEqual(ANSWER);
    expect(pool.rounds()).toBe(3);
  });

  it('fails with a named error once its retries are spent', async () => {
    const failure = Cluster.prototype.metadata.call(clusterWith(poolFailing(100)), { topics: [] });
    await expect(failure).rejects.toMatchObject({
      name: 'KafkaJSNumberOfRetriesExceeded',
      cause: expect.objectContaining({ message: 'No broker answered the metadata request' }),
    });
  });
});
