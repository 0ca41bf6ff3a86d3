/**
 * Delivery throughput and isolation, on the local broker and receivers bound to 127.0.0.1.
 *
 *   npm run bench:delivery     (KAFKA_BROKERS, BENCH_JOBS to adjust)
 *
 * 1. webhooks/s: BENCH_JOBS jobs for one destination whose receiver answers 200 at once.
 * 2. isolation: the same number of jobs spread over 10 destinations, first all healthy, then
 *    with one that never answers (5 s timeouts); prints what the dead one costs the other nine.
 * Every phase runs on a fresh topic namespace and stops by itself (each is capped at 90 s).
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import {
  deliveryEnv,
  job,
  JobProducer,
  Receiver,
  startDeliveryIn,
  writeWorkspace,
} from '../apps/delivery/test-support/delivery-harness';
import { machineSpeedMs } from './bench-kit';
import { localKafkaBrokers } from '@switchyard/config';

const JOBS = Number(process.env.BENCH_JOBS ?? 20_000);
const PHASE_CAP_MS = 90_000;
const PRODUCE_CHUNK = 2_000;

interface PhaseResult {
  seconds: number;
  delivered: number;
  perSecond: number;
}

/** Runs one phase: `destinations` receivers, `jobs` jobs round-robin over them; measures the healthy ones. */
async function phase(name: string, destinations: number, hangingDestinations: number): Promise<PhaseResult> {
  const receivers = await Promise.all(
    Array.from({ length: destinations }, (_, i) =>
      Receiver.start(() => (i < hangingDestinations ? 'hang' : 200)),
    ),
  );
  const ids = receivers.map((_, i) => `dest-${i}`);
  const workspace = writeWorkspace(
    receivers.map((r, i) => ({ id: ids[i], sharedSecret: 'bench-secret', webhooks: [{ url: r.url }] })),
  );
  const namespace = `bench-${randomUUID().slice(0, 8)}`;
  const env = deliveryEnv(namespace, workspace.path, {
    DELIVERY_RETRY_SCHEDULE_MS: '10000,60000',
    DELIVERY_RETRY_WINDOW_MS: '3600000',
    DELIVERY_REQUEST_TIMEOUT_MS: '5000',
    DELIVERY_COMMIT_INTERVAL_MS: '200',
    DELIVERY_SHUTDOWN_GRACE_MS: '0',
    TOPIC_PARTITIONS: '4',
    // Any DELIVERY_* setting given to the benchmark wins, to compare tunings.
    ...(Object.fromEntries(
      Object.entries(process.env).filter(([k, v]) => k.startsWith('DELIVERY_') && v !== undefined),
    ) as Record<string, string>),
  });
  const { app } = await startDeliveryIn(env);
  const producer = await JobProducer.connect(namespace);
  const jobs = Array.from({ length: JOBS }, (_, n) => job(ids[n % destinations], n));
  const healthy = receivers.slice(hangingDestinations);
  const expected = jobs.filter((j) => !ids.slice(0, hangingDestinations).includes(j.destinationId)).length;
  const delivered = () => healthy.reduce((sum, r) => sum + r.requests.length, 0);
  const started = Date.now();
  for (let i = 0; i < jobs.length; i += PRODUCE_CHUNK)
    await producer.send(...jobs.slice(i, i + PRODUCE_CHUNK));
  while (delivered() < expected && Date.now() - started < PHASE_CAP_MS) {
    await Promise.race(
      healthy.map((r) => r.waitForRequests(r.requests.length + 1, 1000).catch(() => undefined)),
    );
  }
  const seconds = (Date.now() - started) / 1000;
  const result = { seconds, delivered: delivered(), perSecond: Math.round(delivered() / seconds) };
  console.log(
    `${name}: ${result.delivered}/${expected} webhooks to healthy receivers in ${seconds.toFixed(2)} s = ${result.perSecond} webhooks/s`,
  );
  await producer.close();
  await app.close();
  await Promise.all(receivers.map((r) => r.close()));
  workspace.remove();
  return result;
}

async function main(): Promise<void> {
  console.log(
    `delivery benchmark: ${JOBS} jobs per phase, 4 partitions, node ${process.version}, broker ${localKafkaBrokers()}, machine speed ${machineSpeedMs().toFixed(0)} ms (lower is faster)`,
  );
  await phase('1 destination', 1, 0);
  const allHealthy = await phase('10 destinations, all healthy', 10, 0);
  const oneDead = await phase('10 destinations, 1 never answers', 10, 1);
  const share = oneDead.perSecond / allHealthy.perSecond;
  console.log(
    `isolation: the 9 healthy destinations kept ${(share * 100).toFixed(0)} % of their throughput (${oneDead.perSecond} vs ${allHealthy.perSecond} webhooks/s overall)`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
