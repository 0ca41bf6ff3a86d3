/**
 * Rate-limit isolation: what a rate-limited destination costs one without a limit. Ingest, router
 * and delivery run compiled as their own processes on the local broker; three receivers listen on
 * 127.0.0.1. Three sources share the pipeline, so every phase runs on the same warm processes and
 * topics; each routes to the unlimited destination and at most one other:
 *  warm-up: `--warmup` seconds into the unlimited destination alone (compiled code, connections);
 *  A: `--seconds` closed loop (pipeline-kit's measureThroughput), the unlimited destination alone;
 *  A2: the same, every event also going to a second destination without a limit: the cost of a
 *      second job per event, which a saturated delivery process pays whatever the destination;
 *  B: the same, every event also going to a destination limited to `--per-second` (burst `--burst`).
 * Prints deliveries/s at the unlimited receiver in each phase, B against A and against A2 (what
 * the limit itself costs), and the limited receiver's busiest second against its limit. B comes
 * last: the limited destination's backlog, waiting in the retry topics, would weigh on a later phase.
 *
 *   npm run bench:isolation -- [--seconds 20] [--warmup 5] [--per-second 50] [--burst 50] [--partitions 6] [--bytes 500]
 */
import { randomUUID } from 'node:crypto';
import { Receiver } from '../apps/delivery/test-support/delivery-harness';
import { freePort, ServiceProcess } from '../test/support/service-process';
import { WorkspaceFile } from '../test/support/workspace-file';
import { cpuSeconds, fmt, localBrokerPid, machineSpeedMs, numberArg, startService } from './bench-kit';
import { BenchPipeline, measureThroughput, Receipt, ThroughputRun } from './pipeline-kit';
import { localKafkaBrokers } from '@switchyard/config';

const seconds = numberArg('seconds', 20);
const warmupSeconds = numberArg('warmup', 5);
const perSecond = numberArg('per-second', 50);
const burst = numberArg('burst', perSecond);
const partitions = numberArg('partitions', 6);
const eventBytes = numberArg('bytes', 500);

/** Which destinations a phase's events go to: the source it sends with, by write key. */
const WRITE_KEYS = {
  alone: 'bench-isolation-alone',
  twin: 'bench-isolation-twin',
  limited: 'bench-isolation-limited',
} as const;
type Phase = keyof typeof WRITE_KEYS;

interface ReceiverUrls {
  unlimited: string;
  twin: string;
  limited: string;
}

function workspaceConfig(urls: ReceiverUrls) {
  const destination = (id: string, sources: Phase[], settings: object) => ({
    id,
    type: 'Webhooks',
    enabled: true,
    sources,
    settings: { sharedSecret: 'bench-secret', ...settings },
  });
  return {
    sources: Object.entries(WRITE_KEYS).map(([id, writeKey]) => ({ id, name: id, writeKey })),
    destinations: [
      destination('unlimited', ['alone', 'twin', 'limited'], { webhooks: [{ url: urls.unlimited }] }),
      destination('twin', ['twin'], { webhooks: [{ url: urls.twin }] }),
      destination('limited', ['limited'], {
        webhooks: [{ url: urls.limited }],
        rateLimit: { perSecond, burst },
      }),
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
  const unlimited = await Receiver.start(
    () => (receipts.push({ sentAtMs: Number.NaN, latencyMs: Number.NaN, receivedAtMs: Date.now() }), 200),
  );
  const twin = await Receiver.start(() => 200);
  const limited = await Receiver.start(() => 200);
  const workspace = new WorkspaceFile(
    workspaceConfig({ unlimited: unlimited.url, twin: twin.url, limited: limited.url }),
  );
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
    const pids = {
      ...Object.fromEntries(Object.entries(procs).map(([name, p]) => [name, p.child.pid])),
      broker: localBrokerPid(),
      // This process: the load generator and the receivers.
      bench: process.pid,
    };
    /** `phaseSeconds` of closed-loop load through the phase's source; deliveries/s at the unlimited receiver. */
    const run = (phase: Phase, phaseSeconds: number): Promise<ThroughputRun> => {
      const pipeline: BenchPipeline = {
        procs,
        receipts,
        send: (batch) => postBatch(procs.ingest.url, WRITE_KEYS[phase], batch),
        close: async () => undefined,
      };
      return measureThroughput(pipeline, phaseSeconds, eventBytes);
    };
    const measured = async (phase: Phase, label: string): Promise<number> => {
      const { result, cpu } = await withCpu(pids, () => run(phase, seconds));
      const rate = result.events / result.elapsed;
      console.log(
        `${label}: ${fmt(rate)} deliveries/s at the unlimited receiver (${fmt(result.events)} in ${fmt(result.elapsed, 1)} s); CPU ${cpuLine(cpu)}`,
      );
      return rate;
    };

    console.log(
      `rate-limit isolation: ${partitions} partitions, events ~${eventBytes} bytes, limited destination ${perSecond}/s (burst ${burst}), ${seconds} s per phase after ${warmupSeconds} s of warm-up; node ${process.version}, machine speed ${fmt(machineSpeedMs())} ms (lower is faster)`,
    );
    if (warmupSeconds > 0) await run('alone', warmupSeconds);
    const alone = await measured('alone', 'A, unlimited destination alone');
    const besideTwin = await measured('twin', 'A2, beside a second unlimited destination');
    const limitedFrom = Date.now();
    const besideLimited = await measured('limited', 'B, beside the limited destination');
    const limitedDelivered = limited.requests.filter((r) => r.at >= limitedFrom).length;
    const limitedSeconds = (Date.now() - limitedFrom) / 1000;
    console.log(
      `limited receiver during B: ${fmt(limitedDelivered)} requests, ${fmt(limitedDelivered / limitedSeconds, 1)}/s on average, busiest second ${fmt(busiestSecond(limited, limitedFrom))} (limit ${perSecond}/s, burst ${burst})`,
    );
    console.log(
      `isolation: in B the unlimited destination kept ${fmt((besideLimited / alone) * 100)} % of its throughput alone and ${fmt((besideLimited / besideTwin) * 100)} % of its throughput beside an unlimited destination`,
    );
  } finally {
    for (const p of Object.values(procs).reverse()) await p.stop();
    await Promise.all([unlimited, twin, limited].map((r) => r.close()));
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
