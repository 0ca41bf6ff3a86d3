/**
 * The TypeScript client library's figures, on 127.0.0.1 only; stops by itself (well under a minute).
 *
 *   npm run bench:client      (KAFKA_BROKERS, BENCH_SECONDS to adjust)
 *
 * 1. Cost per call: rounds of 10,000 synchronous track() calls, with a local receiver that answers
 *    200 at once; ns per call (validation, JSON encoding, queueing, and starting the batches that
 *    fill), then the same messages' total time to delivered.
 * 2. Sustained events/s from this one process through the library into a real ingest, started
 *    in-process on a fresh topic namespace of the local broker (ingest shares this process's CPU).
 */
import 'reflect-metadata';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Analytics, AnalyticsOptions } from '@switchyard/analytics';
import { freshNamespace } from '../test/support/kafka-test-kit';
import { startTestIngest } from '../apps/ingest/test-support/ingest-harness';
import { simpleWorkspace, TEST_WRITE_KEY } from '../test/support/workspace-file';
import { fmt } from './bench-kit';
import { localKafkaBrokers } from '@switchyard/config';

process.env.KAFKA_BROKERS = localKafkaBrokers();
const ROUNDS = 7;
const CALLS_PER_ROUND = 10_000;
const SUSTAINED_SECONDS = Math.min(Number(process.env.BENCH_SECONDS ?? 8), 30);
const CHUNK = 500;

const call = (client: Analytics, i: number) =>
  client.track({
    userId: `user-${i % 1000}`,
    event: 'Order Completed',
    properties: { revenue: 42.5, currency: 'EUR', items: 3 },
  });

/** A receiver that drains each request and answers 200 at once. */
async function instantReceiver(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function costPerCall(): Promise<void> {
  const receiver = await instantReceiver();
  const client = new Analytics(TEST_WRITE_KEY, { endpoint: receiver.url });
  const nsPerCall: number[] = [];
  const deliveredPerSecond: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    for (let i = 0; i < CALLS_PER_ROUND; i += 1) call(client, i);
    const queued = performance.now();
    await client.flush();
    const delivered = performance.now();
    nsPerCall.push(((queued - started) * 1e6) / CALLS_PER_ROUND);
    deliveredPerSecond.push(CALLS_PER_ROUND / ((delivered - started) / 1000));
  }
  await client.close();
  await receiver.close();
  // The first round warms the JIT and the connection pool; the median of the rest is the figure.
  const median = (xs: number[]) => [...xs.slice(1)].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  console.log(
    `cost per call: ${fmt(median(nsPerCall))} ns/call (median of ${ROUNDS - 1} rounds of ${fmt(CALLS_PER_ROUND)}; flushAt 20)`,
  );
  console.log(
    `  same messages to delivered at a local 200 receiver: ${fmt(median(deliveredPerSecond))} events/s`,
  );
}

async function sustained(label: string, options: AnalyticsOptions): Promise<void> {
  const ingest = await startTestIngest(freshNamespace('bench-client'), simpleWorkspace());
  const client = new Analytics(TEST_WRITE_KEY, { endpoint: ingest.url, ...options });
  const maxQueue = options.maxQueueSize ?? 10_000;
  let sent = 0;
  const started = performance.now();
  const deadline = started + SUSTAINED_SECONDS * 1000;
  while (performance.now() < deadline) {
    // Back-pressure as a careful caller would apply it: stay under maxQueueSize instead of catching QueueFullError.
    if (client.queueLength + CHUNK > maxQueue) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      continue;
    }
    for (let i = 0; i < CHUNK; i += 1) call(client, sent + i);
    sent += CHUNK;
    await new Promise((resolve) => setImmediate(resolve));
  }
  await client.close();
  const seconds = (performance.now() - started) / 1000;
  await ingest.close();
  console.log(
    `sustained into ingest (${label}): ${fmt(sent / seconds)} events/s (${fmt(sent)} events in ${fmt(seconds, 1)} s, all acknowledged)`,
  );
}

async function main(): Promise<void> {
  await costPerCall();
  await sustained('defaults: flushAt 20, 4 requests in flight', {});
  await sustained('flushAt 250, 8 requests in flight', { flushAt: 250, maxInFlightRequests: 8 });
}

const watchdog = setTimeout(() => {
  console.error('bench: over its 3-minute cap, stopping');
  process.exit(1);
}, 180_000);
watchdog.unref();

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
