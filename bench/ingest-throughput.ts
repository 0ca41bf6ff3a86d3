/**
 * Ingest throughput: events/s acknowledged by the broker (acks = all) through /v1/batch with
 * 100 messages of ~500 bytes, then requests/s of single /v1/track calls, with latency
 * percentiles, ingest's CPU and peak RSS; then p50/p99 at half of each measured load. Ingest runs as its own process (compiled), the broker
 * on the same machine, the load from this process over keep-alive connections on 127.0.0.1.
 *
 *   npm run build && node -r @swc-node/register bench/ingest-throughput.ts [seconds=10] [connections=32]
 * Needs a broker: KAFKA_BROKERS, or `npm run kafka:start` for the local one.
 */
import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { Pool } from 'undici';
import { cpuSeconds, fmt, peakRssMb, percentile, repoRoot, startService } from './bench-kit';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 32);
const port = 18180;
const writeKey = 'demo-website-write-key';
const auth = `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}`;

function event(i: number) {
  return {
    type: 'track',
    userId: `user-${i % 5000}`,
    event: 'Order Completed',
    properties: { orderId: `order-${i}`, revenue: 42.5, currency: 'EUR', items: [{ sku: 'sku-1', qty: 2 }], note: 'x'.repeat(220) },
    context: { ip: '203.0.113.7', library: { name: 'bench', version: '1.0.0' } },
  };
}

async function load(pool: Pool, path: string, body: () => string, eventsPerRequest: number, durationS: number, concurrency: number) {
  const latencies: number[] = [];
  let failures = 0;
  const until = Date.now() + durationS * 1000;
  const worker = async () => {
    while (Date.now() < until) {
      const started = performance.now();
      const res = await pool.request({ path, method: 'POST', headers: { 'content-type': 'application/json', authorization: auth }, body: body() });
      await res.body.dump();
      if (res.statusCode === 200) latencies.push(performance.now() - started);
      else failures += 1;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { requestsPerS: latencies.length / elapsed, eventsPerS: (latencies.length * eventsPerRequest) / elapsed, failures, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** Open loop at a fixed rate (what a fleet of clients does), so latency is not hidden by back-pressure. */
async function loadAtRate(pool: Pool, path: string, body: () => string, ratePerS: number, durationS: number) {
  const latencies: number[] = [];
  let failures = 0;
  const inFlight: Promise<void>[] = [];
  const start = Date.now();
  let sent = 0;
  for (let tick = 0; tick < durationS * 100; tick++) {
    const wait = start + tick * 10 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    for (; sent < ((tick + 1) * ratePerS) / 100; sent++) {
      const started = performance.now();
      inFlight.push(
        pool.request({ path, method: 'POST', headers: { 'content-type': 'application/json', authorization: auth }, body: body() }).then(async (res) => {
          await res.body.dump();
          if (res.statusCode === 200) latencies.push(performance.now() - started);
          else failures += 1;
        }),
      );
    }
  }
  await Promise.all(inFlight);
  latencies.sort((a, b) => a - b);
  return { failures, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function main() {
  const ingest = await startService('ingest', {
    WORKSPACE_CONFIG: `${repoRoot}/config/workspace.example.yaml`,
    TOPIC_NAMESPACE: `bench-${randomUUID().slice(0, 8)}`,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
  }, port);
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections, pipelining: 1 });
  try {
    // Bodies are serialised once, up front: the load generator shares the two cores with ingest
    // and the broker, and every CPU cycle it spends is one ingest cannot use. Ingest assigns the
    // messageIds, so repeating a body still writes distinct calls.
    const batchBodies = Array.from({ length: 64 }, (_, b) => JSON.stringify({ batch: Array.from({ length: 100 }, (_, k) => event(b * 100 + k)) }));
    const singleBodies = Array.from({ length: 6400 }, (_, k) => JSON.stringify(event(k)));
    let i = 0;
    const batchBody = () => batchBodies[i++ % batchBodies.length];
    const singleBody = () => singleBodies[i++ % singleBodies.length];
    const sample = Buffer.byteLength(JSON.stringify(event(0)));
    await load(pool, '/v1/batch', batchBody, 100, 2, connections); // warm-up
    const cpu0 = cpuSeconds(ingest.child.pid);
    const batch = await load(pool, '/v1/batch', batchBody, 100, seconds, connections);
    const batchCpu = (cpuSeconds(ingest.child.pid) - cpu0) / seconds;
    const cpu1 = cpuSeconds(ingest.child.pid);
    const single = await load(pool, '/v1/track', singleBody, 1, seconds, connections);
    const singleCpu = (cpuSeconds(ingest.child.pid) - cpu1) / seconds;
    console.log(`machine: ${cpus().length} cores, node ${process.version}; event ~${sample} bytes; ${connections} connections; ${seconds} s per phase`);
    console.log(`/v1/batch x100: ${fmt(batch.eventsPerS)} events/s acknowledged (${fmt(batch.requestsPerS)} req/s), p50 ${fmt(batch.p50, 1)} ms, p99 ${fmt(batch.p99, 1)} ms, failures ${batch.failures}, ingest CPU ${fmt(batchCpu * 100)}%`);
    console.log(`/v1/track:      ${fmt(single.requestsPerS)} requests/s, p50 ${fmt(single.p50, 1)} ms, p99 ${fmt(single.p99, 1)} ms, failures ${single.failures}, ingest CPU ${fmt(singleCpu * 100)}%`);
    const halfBatch = await loadAtRate(pool, '/v1/batch', batchBody, batch.requestsPerS / 2, seconds);
    const halfSingle = await loadAtRate(pool, '/v1/track', singleBody, single.requestsPerS / 2, seconds);
    console.log(`at half load: /v1/batch ${fmt(batch.eventsPerS / 2)} events/s → p50 ${fmt(halfBatch.p50, 1)} ms, p99 ${fmt(halfBatch.p99, 1)} ms (failures ${halfBatch.failures}); /v1/track ${fmt(single.requestsPerS / 2)} req/s → p50 ${fmt(halfSingle.p50, 1)} ms, p99 ${fmt(halfSingle.p99, 1)} ms (failures ${halfSingle.failures})`);
    console.log(`ingest peak RSS: ${fmt(peakRssMb(ingest.child.pid))} MB`);
  } finally {
    await pool.close();
    await ingest.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
