/**
 * Rate-limit isolation: what a rate-limited destination costs one without a limit. Ingest, router
 * and delivery run compiled as their own processes on the local broker; two receivers listen on
 * 127.0.0.1. Two sources share the pipeline: one routes to the unlimited destination alone, the
 * other to it and to a destination limited to `--per-second` (burst `--burst`), so both phases
 * run on the same warm processes and topics.
 *  warm-up: `--warmup` seconds into the unlimited destination alone (compiled code, connections);
 *  A: `--seconds` closed loop (pipeline-kit's measureThroughput), the unlimited destination alone;
 *  B: the same, every event also going to the limited destination.
 * Prints deliveries/s at the unlimited receiver in A and B, B as a share of A, and the limited
 * receiver's busiest second against its limit. B comes last: the limited destination's backlog,
 * waiting in the retry topics, would otherwise weigh on a later A.
 *
 *   npm run bench:isolation -- [--seconds 20] [--warmup 5] [--per-second 50] [--burst 50] [--partitions 6] [--bytes 500]
 */
import { randomUUID } from 'node:crypto';
import { Receiver } from '../apps/delivery/test-support/delivery-harness';
import { freePort, ServiceProcess } from '../test/support/service-process';
import { WorkspaceFile } from '../test/support/workspace-file';
import { cpuSeconds, fmt, localBrokerPid, machineSpeedMs, numberArg, startService } from './bench-kit';
import { BenchPipeline, measureThroughput, Receipt } from './pipeline-kit';
import { localKafkaBrokers } from '@switchyard/config';

const seconds = numberArg('seconds', 20);
const warmupSeconds = numberArg('warmup', 5);
const perSecond = numberArg('per-second', 50);
const burst = numberArg('burst', perSecond);
const partitions = numberArg('partitions', 6);
const eventBytes = numberArg('bytes', 500);

/** The unlimited destination alone, and both destinations. */
const WRITE_KEYS = { alone: 'bench-isolation-alone', both: 'bench-isolation-both' } as const;

function workspaceConfig(unlimitedUrl: string, limitedUrl: string) {
  return {
    sources: [
      { id: 'alone', name: 'Unlimited destination only', writeKey: WRITE_KEYS.alone },
      { id: 'both', name: 'Both destinations', writeKey: WRITE_KEYS.both },
    ],
    destinations: [
      {
        id: 'unlimited',
        type: 'Webhooks',
        enabled: true,
        sources: ['alone', 'both'],
        settings: { sharedSecret: 'bench-secret', webhooks: [{ url: unlimitedUrl }] },
      },
      {
        id: 'limited',
        type: 'Webhooks',
        enabled: true,
        sources: ['both'],
        settings: {
          sharedSecret: 'bench-secret',
          webhooks: [{ url: limitedUrl }],
          rateLimit: { perSecond, burst },
        },
      },
    ],
  };
}

/** Posts one `/v1/batch` under `writeKey`; rejects unless ingest answers 200. */
async function postBatch(ingestUrl: string, writeKey: string, batch: object[]): Promise<void> {
  const response = await fetch(`${ingestUrl}/v1/batch`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}`,
    },
    body: JSON.stringify({ batch }),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`ingest answered ${response.status}`);
}

/** The most requests a receiver had in one second of its clock, from `sinceMs` on. */
function busiestSecond(receiver: Receiver, sinceMs: number): number {
  const perSecondCounts = new Map<number, number>();
  for (const { at } of receiver.requests) {
    if (at < sinceMs) continue;
    const second = Math.floor(at / 1000);
    perSecondCounts.set(second, (perSecondCounts.get(second) ?? 0) + 1);
  }
  return Math.max(0, ...perSecondCounts.values());
}

/** CPU share (100 = one core) of each process while `run` ran. */
async function withCpu<T>(
  pids: Record<string, number | undefined>,
  run: () => Promise<T>,
): Promise<{ result: T; cpu: Record<string, number> }> {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
  const started = Date.now();
  const result = await run();
  const elapsed = (Date.now() - started) / 1000;
  const cpu = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, ((cpuSeconds(pid) - before[name]) / elapsed) * 100]),
  );
  return { result, cpu };
}

const cpuLine = (cpu: Record<string, number>) =>
  Object.entries(cpu)
    .filter(([, share]) => Number.isFinite(share))
    .map(([name, share]) => `${name} ${fmt(share)}%`)
    .join(', ');

async function main(): Promise<void> {
  // Receipts for measureThroughput, which counts them; latency is not what this benchmark measures.
  const receipts: Receipt[] = [];
  const unlimited = await Receiver.start(() => (receipts.push({ latencyMs: Number.NaN }), 200));
  const limited = await Receiver.start(() => 200);
  const workspace = new WorkspaceFile(workspaceConfig(unlimited.url, limited.url));
  const env = {
    WORKSPACE_CONFIG: workspace.path,
    TOPIC_NAMESPACE: `bench-${randomUUID().slice(0, 8)}`,
    TOPIC_PARTITIONS: String(partitions),
    KAFKA_BROKERS: localKafkaBrokers(),
  };
  const procs: Record<string, ServiceProcess> = {};
  try {
    // One after the other: each creates the topics the next consumes.
    for (const name of ['ingest', 'router', 'delivery'] as const)
      procs[name] = await startService(name, env, await freePort());
    const pipelineFor = (writeKey: string): BenchPipeline => ({
      procs,
      receipts,
      send: (batch) => postBatch(procs.ingest.url, writeKey, batch),
      close: async () => undefined,
    });
    const pids = {
      ...Object.fromEntries(Object.entries(procs).map(([name, p]) => [name, p.child.pid])),
      broker: localBrokerPid(),
      // This process: the load generator and both receivers.
      bench: process.pid,
    };

    console.log(
      `rate-limit isolation: ${partitions} partitions, events ~${eventBytes} bytes, limited destination ${perSecond}/s (burst ${burst}), ${seconds} s per phase after ${warmupSeconds} s of warm-up; node ${process.version}, machine speed ${fmt(machineSpeedMs())} ms (lower is faster)`,
    );
    if (warmupSeconds > 0) await measureThroughput(pipelineFor(WRITE_KEYS.alone), warmupSeconds, eventBytes);

    const alone = await withCpu(pids, () =>
      measureThroughput(pipelineFor(WRITE_KEYS.alone), seconds, eventBytes),
    );
    const aloneRate = alone.result.events / alone.result.elapsed;
    console.log(
      `A, unlimited destination alone: ${fmt(aloneRate)} deliveries/s (${fmt(alone.result.events)} in ${fmt(alone.result.elapsed, 1)} s); CPU ${cpuLine(alone.cpu)}`,
    );

    const phaseBStart = Date.now();
    const both = await withCpu(pids, () =>
      measureThroughput(pipelineFor(WRITE_KEYS.both), seconds, eventBytes),
    );
    const bothRate = both.result.events / both.result.elapsed;
    const limitedDelivered = limited.requests.filter((r) => r.at >= phaseBStart).length;
    console.log(
      `B, beside the limited destination: ${fmt(bothRate)} deliveries/s at the unlimited receiver (${fmt(both.result.events)} in ${fmt(both.result.elapsed, 1)} s); CPU ${cpuLine(both.cpu)}`,
    );
    console.log(
      `limited receiver during B: ${fmt(limitedDelivered)} requests, ${fmt(limitedDelivered / both.result.elapsed, 1)}/s on average, busiest second ${fmt(busiestSecond(limited, phaseBStart))} (limit ${perSecond}/s, burst ${burst}); ${fmt(both.result.events - limitedDelivered)} of its events still waiting at the end`,
    );
    console.log(
      `isolation: the unlimited destination kept ${fmt((bothRate / aloneRate) * 100)} % of its throughput`,
    );
  } finally {
    for (const p of Object.values(procs).reverse()) await p.stop();
    await Promise.all([unlimited.close(), limited.close()]);
    workspace.remove();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
