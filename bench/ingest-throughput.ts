/**
 * Ingest throughput: events/s acknowledged by the broker (acks = all) through /v1/batch with
 * 100 messages of ~500 bytes, then requests/s of single /v1/track calls, then of the same calls
 * as analytics.js sends them (text/plain to /v1/t), with latency
 * percentiles, the CPU of ingest, the broker and the load generator, and ingest's peak RSS; then
 * p50/p99 at half of each measured load. Ingest runs as its own process (compiled), the broker
 * on the same machine, the load from this process over keep-alive connections on 127.0.0.1.
 * With `replicas` > 1, that many ingest processes share the load, as pods behind a Kubernetes
 * Service would (undici's BalancedPool spreads the requests).
 *
 *   npm run bench:ingest -- [seconds=10] [connections=32] [replicas=1]
 *   BENCH_TOOLS=go npm run bench:ingest -- 10 256 2     (closed-loop phases from bench/go/loadgen, Go + fasthttp)
 * Needs a broker: KAFKA_BROKERS, or `npm run kafka:start` for the local one.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BalancedPool, Pool } from 'undici';
import { localKafkaBrokers } from '@switchyard/config';
import {
  cpuSeconds,
  fmt,
  goTool,
  localBrokerPid,
  machineSpeedMs,
  peakRssMb,
  percentile,
  repoRoot,
  startService,
} from './bench-kit';
import { benchTrackCall, DEMO_SOURCE_AUTH } from './ingest-calls';
import { freePort } from '../test/support/service-process';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 32);
const replicas = Number(process.argv[4] ?? 1);
// BENCH_TOOLS=go: the closed-loop phases come from bench/go/loadgen instead of this process.
const loadgenName = process.env.BENCH_TOOLS === 'go' ? 'go' : 'node';
const execFileAsync = promisify(execFile);

interface ClosedLoopResult {
  requestsPerS: number;
  eventsPerS: number;
  failures: number;
  p50: number;
  p99: number;
  /** CPU seconds the load generator itself used. */
  loadCpuSeconds: number;
}

/** The ingest processes under test: a pool over them for this process, their URLs for the Go load generator. */
interface Target {
  pool: Pool | BalancedPool;
  urls: string[];
}

/** Where the load goes and how its bodies are declared. */
interface Endpoint {
  path: string;
  contentType: string;
}
const json = (path: string): Endpoint => ({ path, contentType: 'application/json' });

type ClosedLoop = (
  target: Target,
  endpoint: Endpoint,
  bodies: Buffer[],
  eventsPerRequest: number,
  durationS: number,
  concurrency: number,
) => Promise<ClosedLoopResult>;

/** `concurrency` requests at a time from this process (undici), for `durationS` seconds. */
const nodeClosedLoop: ClosedLoop = async (
  { pool },
  { path, contentType },
  bodies,
  eventsPerRequest,
  durationS,
  concurrency,
) => {
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const cpu0 = process.cpuUsage();
  const until = Date.now() + durationS * 1000;
  const worker = async () => {
    while (Date.now() < until) {
      const started = performance.now();
      const res = await pool.request({
        path,
        method: 'POST',
        headers: { 'content-type': contentType, authorization: DEMO_SOURCE_AUTH },
        body: bodies[next++ % bodies.length],
      });
      await res.body.dump();
      if (res.statusCode === 200) latencies.push(performance.now() - started);
      else failures += 1;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  return {
    requestsPerS: latencies.length / elapsed,
    eventsPerS: (latencies.length * eventsPerRequest) / elapsed,
    failures,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    loadCpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
};

/**
 * The same closed loop from bench/go/loadgen (fasthttp): this process needs a large share of a
 * core at high request rates, which ingest, sharing the cores, then cannot use; loadgen needs
 * far less.
 */
const goClosedLoop: ClosedLoop = async (
  { urls },
  { path, contentType },
  bodies,
  eventsPerRequest,
  durationS,
  concurrency,
) => {
  const bodyFile = join(mkdtempSync(join(tmpdir(), 'switchyard-bench-')), 'bodies.ndjson');
  writeFileSync(bodyFile, bodies.map((b) => b.toString('utf8')).join('\n'));
  const args = [
    '-urls',
    urls.join(','),
    '-path',
    path,
    '-content-type',
    contentType,
    '-bodies',
    bodyFile,
    '-auth',
    DEMO_SOURCE_AUTH,
    '-connections',
    String(concurrency),
    '-seconds',
    String(durationS),
  ];
  const { stdout } = await execFileAsync(goTool('loadgen'), args);
  const r = JSON.parse(stdout) as {
    requestsPerS: number;
    failures: number;
    p50Ms: number;
    p99Ms: number;
    cpuSeconds: number;
  };
  return {
    requestsPerS: r.requestsPerS,
    eventsPerS: r.requestsPerS * eventsPerRequest,
    failures: r.failures,
    p50: r.p50Ms,
    p99: r.p99Ms,
    loadCpuSeconds: r.cpuSeconds,
  };
};

/** Open loop at a fixed rate (what a fleet of clients does), so latency is not hidden by back-pressure. */
async function loadAtRate(
  pool: Pool | BalancedPool,
  { path, contentType }: Endpoint,
  bodies: Buffer[],
  ratePerS: number,
  durationS: number,
) {
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
        pool
          .request({
            path,
            method: 'POST',
            headers: { 'content-type': contentType, authorization: DEMO_SOURCE_AUTH },
            body: bodies[sent % bodies.length],
          })
          .then(async (res) => {
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

/** Runs `phase` and reports the CPU that ingest, the broker (when local) and the load generator used meanwhile. */
async function cpuDuring(
  ingestPids: Array<number | undefined>,
  phase: () => Promise<ClosedLoopResult>,
): Promise<{ result: ClosedLoopResult; shares: string }> {
  const brokerPid = localBrokerPid();
  const ingestCpu = () => ingestPids.reduce<number>((sum, pid) => sum + cpuSeconds(pid), 0);
  const before = { ingest: ingestCpu(), broker: cpuSeconds(brokerPid) };
  const started = performance.now();
  const result = await phase();
  const elapsed = (performance.now() - started) / 1000;
  const pct = (seconds: number) => `${fmt((seconds / elapsed) * 100)}%`;
  const shares = [
    `ingest ${pct(ingestCpu() - before.ingest)}`,
    brokerPid ? `broker ${pct(cpuSeconds(brokerPid) - before.broker)}` : undefined,
    `load generator (${loadgenName}) ${pct(result.loadCpuSeconds)}`,
  ];
  return { result, shares: shares.filter(Boolean).join(', ') };
}

async function main() {
  const env = {
    WORKSPACE_CONFIG: `${repoRoot}/config/workspace.example.yaml`,
    TOPIC_NAMESPACE: `bench-${randomUUID().slice(0, 8)}`,
    KAFKA_BROKERS: localKafkaBrokers(),
  };
  // One after another: the first creates the topics.
  const ingests = [];
  for (let r = 0; r < replicas; r++) ingests.push(await startService('ingest', env, await freePort()));
  const pids = ingests.map((ingest) => ingest.child.pid);
  const pool =
    replicas === 1
      ? new Pool(ingests[0].url, { connections, pipelining: 1 })
      : new BalancedPool(
          ingests.map((ingest) => ingest.url),
          { connections: Math.ceil(connections / replicas), pipelining: 1 },
        );
  const target: Target = { pool, urls: ingests.map((ingest) => ingest.url) };
  const closedLoop = loadgenName === 'go' ? goClosedLoop : nodeClosedLoop;
  try {
    // Bodies are serialised once, up front: the load generator shares the two cores with ingest
    // and the broker, and every CPU cycle it spends is one ingest cannot use. Ingest assigns the
    // messageIds, so repeating a body still writes distinct calls.
    const batchBodies = Array.from({ length: 64 }, (_, b) =>
      Buffer.from(
        JSON.stringify({ batch: Array.from({ length: 100 }, (_, k) => benchTrackCall(b * 100 + k)) }),
      ),
    );
    const singleBodies = Array.from({ length: 6400 }, (_, k) =>
      Buffer.from(JSON.stringify(benchTrackCall(k))),
    );
    const sample = Buffer.byteLength(JSON.stringify(benchTrackCall(0)));
    await closedLoop(target, json('/v1/batch'), batchBodies, 100, 2, connections); // warm-up
    const batchCpu = await cpuDuring(pids, () =>
      closedLoop(target, json('/v1/batch'), batchBodies, 100, seconds, connections),
    );
    const singleCpu = await cpuDuring(pids, () =>
      closedLoop(target, json('/v1/track'), singleBodies, 1, seconds, connections),
    );
    // analytics.js: the short path and a text/plain body, which ingest reads with the same JSON parser.
    const browserCpu = await cpuDuring(pids, () =>
      closedLoop(target, { path: '/v1/t', contentType: 'text/plain' }, singleBodies, 1, seconds, connections),
    );
    const batch = batchCpu.result;
    const single = singleCpu.result;
    const browser = browserCpu.result;
    console.log(
      `machine: ${cpus().length} cores, node ${process.version}; event ~${sample} bytes; ${connections} connections; ${replicas} ingest process(es); ${seconds} s per phase; machine speed ${fmt(machineSpeedMs())} ms (lower is faster)`,
    );
    console.log(
      `/v1/batch x100: ${fmt(batch.eventsPerS)} events/s acknowledged (${fmt(batch.requestsPerS)} req/s), p50 ${fmt(batch.p50, 1)} ms, p99 ${fmt(batch.p99, 1)} ms, failures ${batch.failures}; CPU ${batchCpu.shares}`,
    );
    console.log(
      `/v1/track:      ${fmt(single.requestsPerS)} requests/s, p50 ${fmt(single.p50, 1)} ms, p99 ${fmt(single.p99, 1)} ms, failures ${single.failures}; CPU ${singleCpu.shares}`,
    );
    console.log(
      `/v1/t text/plain: ${fmt(browser.requestsPerS)} requests/s (${fmt((browser.requestsPerS / single.requestsPerS) * 100)} % of /v1/track), p50 ${fmt(browser.p50, 1)} ms, p99 ${fmt(browser.p99, 1)} ms, failures ${browser.failures}; CPU ${browserCpu.shares}`,
    );
    const halfBatch = await loadAtRate(pool, json('/v1/batch'), batchBodies, batch.requestsPerS / 2, seconds);
    const halfSingle = await loadAtRate(
      pool,
      json('/v1/track'),
      singleBodies,
      single.requestsPerS / 2,
      seconds,
    );
    console.log(
      `at half load: /v1/batch ${fmt(batch.eventsPerS / 2)} events/s → p50 ${fmt(halfBatch.p50, 1)} ms, p99 ${fmt(halfBatch.p99, 1)} ms (failures ${halfBatch.failures}); /v1/track ${fmt(single.requestsPerS / 2)} req/s → p50 ${fmt(halfSingle.p50, 1)} ms, p99 ${fmt(halfSingle.p99, 1)} ms (failures ${halfSingle.failures})`,
    );
    console.log(`ingest peak RSS: ${pids.map((pid) => `${fmt(peakRssMb(pid))} MB`).join(', ')}`);
  } finally {
    await pool.close();
    await Promise.all(ingests.map((ingest) => ingest.stop()));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
