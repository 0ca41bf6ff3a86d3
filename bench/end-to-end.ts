/**
 * End to end: ingest → router → delivery → a local webhook receiver, every service its own
 * (compiled) process, the broker on the same machine. Two phases:
 *  1. throughput: send as fast as delivery keeps up for `--seconds`; events/s received;
 *  2. latency: an open-loop `--rate` events/s (default 1,000) for `--seconds`; p50/p99 from the
 *     moment ingest was called to receipt at the webhook.
 * Prints CPU and peak RSS per service.
 *
 *   npm run bench:e2e -- [--seconds 10] [--rate 1000] [--partitions 6] [--bytes 500] [--delivery-replicas 1]
 * --delivery-replicas runs that many delivery processes in one consumer group, as delivery pods would.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { ServiceProcess } from '../test/support/service-process';
import { cpuSeconds, fillerText, fmt, localBrokerPid, machineSpeedMs, peakRssMb, percentile, startService } from './bench-kit';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seconds = arg('seconds', 10);
const rate = arg('rate', 1000);
const partitions = arg('partitions', 6);
const eventBytes = arg('bytes', 500);
const deliveryReplicas = arg('delivery-replicas', 1);
const writeKey = 'bench-write-key-0001';
// Ingest takes 500 KB per request: big events go fewer to a batch.
const eventsPerRequest = Math.max(1, Math.min(100, Math.floor(400_000 / eventBytes)));
const auth = `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}`;

interface Receipt {
  latencyMs: number;
}

async function startReceiver() {
  const receipts: Receipt[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receipts.push({ latencyMs: Date.now() - sentAtMs(Buffer.concat(chunks).toString('latin1')) });
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { receipts, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, close: () => server.close() };
}

/**
 * The send time the bench put in the event. Found by its key rather than by parsing the body: the
 * receiver shares the two cores with the pipeline, and JSON.parse of every body was most of its CPU.
 */
function sentAtMs(body: string): number {
  const at = body.indexOf(SENT_AT_KEY);
  return at < 0 ? Number.NaN : parseInt(body.slice(at + SENT_AT_KEY.length, at + SENT_AT_KEY.length + 16), 10);
}
const SENT_AT_KEY = '"sentAtMs":';

function event(i: number) {
  return { type: 'track', userId: `user-${i % 10_000}`, event: 'Order Completed', properties: { sentAtMs: Date.now(), orderId: `o-${i}`, pad: fillerText(Math.max(0, eventBytes - 200), i) } };
}

async function waitUntil(check: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

async function main() {
  const receiver = await startReceiver();
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
  const workspace = join(dir, 'workspace.json');
  writeFileSync(workspace, JSON.stringify({
    sources: [{ id: 'bench', name: 'Bench', writeKey }],
    destinations: [{ id: 'bench-hooks', type: 'Webhooks', enabled: true, sources: ['bench'], settings: { sharedSecret: 'bench-secret', webhooks: [{ url: receiver.url }] } }],
  }));
  const env = { WORKSPACE_CONFIG: workspace, TOPIC_NAMESPACE: `bench-${randomUUID().slice(0, 8)}`, TOPIC_PARTITIONS: String(partitions), KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092' };
  const ingest = await startService('ingest', env, 18280);
  const router = await startService('router', env, 18281);
  const deliveries = await Promise.all(Array.from({ length: deliveryReplicas }, (_, i) => startService('delivery', env, 18282 + 10 * i)));
  const procs: Record<string, ServiceProcess> = { ingest, router, ...Object.fromEntries(deliveries.map((d, i) => [deliveryReplicas === 1 ? 'delivery' : `delivery${i + 1}`, d])) };
  const pool = new Pool('http://127.0.0.1:18280', { connections: 16 });
  const send = async (batch: object[]) => {
    const res = await pool.request({ path: '/v1/batch', method: 'POST', headers: { 'content-type': 'application/json', authorization: auth }, body: JSON.stringify({ batch }) });
    await res.body.dump();
    if (res.statusCode !== 200) throw new Error(`ingest answered ${res.statusCode}`);
  };
  try {
    let i = 0;
    // Throughput: keep at most ~20k events ahead of the receiver, so the figure is what delivery sustains.
    const cpu0 = Object.fromEntries(Object.entries(procs).map(([k, p]) => [k, cpuSeconds(p.child.pid)]));
    const brokerPid = localBrokerPid();
    const brokerCpu0 = cpuSeconds(brokerPid);
    const benchCpu0 = process.cpuUsage();
    const t0 = Date.now();
    const until = t0 + seconds * 1000;
    const workers = Array.from({ length: 8 }, async () => {
      while (Date.now() < until) {
        if (i - receiver.receipts.length > 20_000) {
          await new Promise((r) => setTimeout(r, 5));
          continue;
        }
        await send(Array.from({ length: eventsPerRequest }, () => event(i++)));
      }
    });
    await Promise.all(workers);
    await waitUntil(() => receiver.receipts.length >= i, 120_000);
    const elapsed = (Date.now() - t0) / 1000;
    const throughput = receiver.receipts.length / elapsed;
    const cpu = Object.fromEntries(Object.entries(procs).map(([k, p]) => [k, (cpuSeconds(p.child.pid) - cpu0[k]) / elapsed]));
    const brokerCpu = (cpuSeconds(brokerPid) - brokerCpu0) / elapsed;
    const benchCpu = process.cpuUsage(benchCpu0);

    // Latency at a fixed open-loop rate, in batches of 10 every 10 ms.
    const before = receiver.receipts.length;
    const perTick = Math.max(1, Math.round(rate / 100));
    const ticks = seconds * 100;
    let sent = 0;
    const start = Date.now();
    const pending: Promise<void>[] = [];
    for (let t = 0; t < ticks; t++) {
      const due = start + t * 10;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      pending.push(send(Array.from({ length: perTick }, () => event(i++))));
      sent += perTick;
    }
    await Promise.all(pending);
    await waitUntil(() => receiver.receipts.length - before >= sent, 60_000);
    const latencies = receiver.receipts.slice(before).map((r) => r.latencyMs).sort((a, b) => a - b);

    console.log(`machine: ${cpus().length} cores, node ${process.version}; broker on the same machine; ${partitions} partitions; events ~${eventBytes} bytes; machine speed ${fmt(machineSpeedMs())} ms (lower is faster)`);
    console.log(`throughput: ${fmt(throughput)} events/s delivered to the webhook (${fmt(receiver.receipts.length)} events in ${fmt(elapsed, 1)} s)`);
    console.log(`latency at ${fmt(rate)} events/s: p50 ${fmt(percentile(latencies, 50), 1)} ms, p99 ${fmt(percentile(latencies, 99), 1)} ms, max ${fmt(latencies.at(-1) ?? NaN)} ms (${fmt(latencies.length)} of ${fmt(sent)} received)`);
    for (const [name, p] of Object.entries(procs)) {
      console.log(`${name.padEnd(8)} CPU ${fmt(cpu[name] * 100)}% during throughput, peak RSS ${fmt(peakRssMb(p.child.pid))} MB`);
    }
    // The rest of the two cores: the broker (when local) and this process (load and the receiver).
    if (brokerPid) console.log(`broker   CPU ${fmt(brokerCpu * 100)}% during throughput`);
    console.log(`bench    CPU ${fmt(((benchCpu.user + benchCpu.system) / 1e6 / elapsed) * 100)}% during throughput (load generator and receiver)`);
  } finally {
    await pool.close();
    for (const p of Object.values(procs)) await p.stop();
    receiver.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
