/**
 * End to end: ingest → router → delivery → a local webhook receiver, every service its own
 * (compiled) process or, with `--mode all-in-one`, the three in one, the broker on the same
 * machine. Three phases:
 *  1. throughput: send as fast as delivery keeps up for `--seconds`; events/s received, and the
 *     CPU and peak RSS of each process;
 *  2. latency: an open loop at each of `--rates` events/s for `--latency-seconds`; p50/p99 from
 *     the moment the bench made an event to its receipt at the webhook;
 *  3. breakdown: a second pipeline, its services tracing to a collector in the bench, at each of
 *     `--breakdown-rates`: p50/p99 of every hop of an event's way (bench/latency-breakdown.ts),
 *     and its end-to-end latency beside the untraced pipeline's at the same rate (what the
 *     measuring costs). Rates the latency phase did not run are measured untraced too.
 *
 *   npm run bench:e2e -- [--seconds 10] [--latency-seconds <seconds>] [--rates 50,500,1000]
 *     [--breakdown-rates 50,500] [--phases throughput,latency,breakdown] [--partitions 6]
 *     [--bytes 500] [--delivery-replicas 1] [--destination-variant segment|filtered-standard]
 *     [--warmup-seconds 2] [--mode split|all-in-one]
 * --delivery-replicas runs that many delivery processes in one consumer group, as delivery pods would.
 * --warmup-seconds: how long the open loop at 500 events/s runs before open-loop phases that no
 * throughput phase preceded. At 50 events/s the hot path keeps getting faster for a minute or more
 * as V8 optimises it; a longer warm-up measures that steady state rather than the way to it.
 * --destination-variant filtered-standard delivers with Standard Webhooks signing and two filter
 * rules (bench/destination-variants.ts), to compare with the plain `segment` destination.
 */
import { cpus } from 'node:os';
import {
  cpuSeconds,
  fmt,
  localBrokerPid,
  machineFigures,
  numberArg,
  numberListArg,
  peakRssMb,
  percentile,
  stringArg,
} from './bench-kit';
import { DestinationVariant, destinationVariantArg } from './destination-variants';
import { collectBreakdown, printBreakdown, tracingEnv } from './latency-breakdown';
import {
  BenchPipeline,
  measureThroughput,
  modeArg,
  openLoop,
  Receipt,
  startBenchPipeline,
} from './pipeline-kit';
import { TraceCollector } from './trace-collector';

if (process.argv.includes('--rate')) throw new Error('--rate is now --rates (a comma-separated list)');

const PHASES = ['throughput', 'latency', 'breakdown'] as const;
type Phase = (typeof PHASES)[number];

const seconds = numberArg('seconds', 10);
const latencySeconds = numberArg('latency-seconds', seconds);
const rates = numberListArg('rates', '50,500,1000');
const breakdownRates = numberListArg('breakdown-rates', '50,500');
const phases = phasesArg(stringArg('phases', PHASES.join(',')));
const partitions = numberArg('partitions', 6);
const eventBytes = numberArg('bytes', 500);
const deliveryReplicas = numberArg('delivery-replicas', 1);
const mode = modeArg();
if (mode === 'all-in-one' && deliveryReplicas > 1)
  throw new Error('--delivery-replicas needs --mode split: the all-in-one process runs one delivery');
const allInOne = mode === 'all-in-one';
const destination: DestinationVariant = destinationVariantArg(stringArg('destination-variant', 'segment'));

/** A warm-up before open-loop phases that no throughput phase preceded: JIT, connections, fetch sessions. */
const WARM_UP = { rate: 500, seconds: numberArg('warmup-seconds', 2) };

function phasesArg(value: string): Set<Phase> {
  const named = value.split(',');
  const unknown = named.filter((p) => !(PHASES as readonly string[]).includes(p));
  if (unknown.length > 0)
    throw new Error(`--phases takes ${PHASES.join(', ')} (got "${unknown.join(', ')}")`);
  return new Set(named as Phase[]);
}

function latencyLine(rate: number, received: readonly Receipt[], sent: number): string {
  const latencies = received.map((r) => r.latencyMs).sort((a, b) => a - b);
  return `latency at ${fmt(rate)} events/s: p50 ${fmt(percentile(latencies, 50), 1)} ms, p99 ${fmt(percentile(latencies, 99), 1)} ms, max ${fmt(latencies.at(-1) ?? NaN)} ms (${fmt(latencies.length)} of ${fmt(sent)} received)`;
}

const p50p99 = (receipts: readonly Receipt[]) => {
  const latencies = receipts.map((r) => r.latencyMs).sort((a, b) => a - b);
  return `p50 ${fmt(percentile(latencies, 50), 1)} ms, p99 ${fmt(percentile(latencies, 99), 1)} ms`;
};

/**
 * The throughput phase: prints events/s delivered; returns what prints each process's CPU during
 * it and its peak RSS, called once the latency phase ran too (the peak is the whole run's).
 */
async function throughputPhase(pipeline: BenchPipeline): Promise<() => void> {
  const { procs } = pipeline;
  const cpu0 = Object.fromEntries(Object.entries(procs).map(([k, p]) => [k, cpuSeconds(p.child.pid)]));
  const brokerPid = localBrokerPid();
  const brokerCpu0 = cpuSeconds(brokerPid);
  const benchCpu0 = process.cpuUsage();
  const { events: delivered, elapsed } = await measureThroughput(pipeline, seconds, eventBytes);
  const cpu = Object.fromEntries(
    Object.entries(procs).map(([k, p]) => [k, (cpuSeconds(p.child.pid) - cpu0[k]) / elapsed]),
  );
  const brokerCpu = (cpuSeconds(brokerPid) - brokerCpu0) / elapsed;
  const benchCpu = process.cpuUsage(benchCpu0);
  console.log(
    `throughput: ${fmt(delivered / elapsed)} events/s delivered to the webhook (${fmt(delivered)} events in ${fmt(elapsed, 1)} s)`,
  );
  return () => {
    for (const [name, p] of Object.entries(procs)) {
      console.log(
        `${name.padEnd(8)} CPU ${fmt(cpu[name] * 100)}% during throughput, peak RSS ${fmt(peakRssMb(p.child.pid))} MB`,
      );
    }
    // The rest of the two cores: the broker (when local) and this process (load and the receiver).
    if (brokerPid) console.log(`broker   CPU ${fmt(brokerCpu * 100)}% during throughput`);
    console.log(
      `bench    CPU ${fmt(((benchCpu.user + benchCpu.system) / 1e6 / elapsed) * 100)}% during throughput (load generator and receiver)`,
    );
  };
}

/** Throughput and the untraced open-loop latencies; returns the receipts of each rate measured. */
async function untracedPhases(): Promise<Map<number, Receipt[]>> {
  const pipeline = await startBenchPipeline({ partitions, deliveryReplicas, destination, allInOne });
  const untraced = new Map<number, Receipt[]>();
  try {
    const printProcesses = phases.has('throughput') ? await throughputPhase(pipeline) : undefined;
    const openLoopRates = [
      ...(phases.has('latency') ? rates : []),
      ...(phases.has('breakdown') ? breakdownRates : []),
    ];
    if (!phases.has('throughput') && openLoopRates.length > 0)
      await openLoop(pipeline, WARM_UP.rate, WARM_UP.seconds, eventBytes);
    for (const rate of new Set(openLoopRates)) {
      const { sent, receipts } = await openLoop(pipeline, rate, latencySeconds, eventBytes);
      untraced.set(rate, receipts);
      console.log(latencyLine(rate, receipts, sent));
    }
    printProcesses?.();
  } finally {
    await pipeline.close();
  }
  return untraced;
}

async function breakdownPhase(untraced: Map<number, Receipt[]>): Promise<void> {
  const collector = await TraceCollector.start();
  const pipeline = await startBenchPipeline({
    partitions,
    deliveryReplicas,
    destination,
    allInOne,
    env: tracingEnv(collector),
  });
  try {
    await openLoop(pipeline, WARM_UP.rate, WARM_UP.seconds, eventBytes);
    for (const rate of breakdownRates) {
      await collector.take();
      const { receipts } = await openLoop(pipeline, rate, latencySeconds, eventBytes);
      const breakdown = await collectBreakdown(collector, receipts);
      console.log(`breakdown at ${fmt(rate)} events/s, services tracing every event:`);
      printBreakdown(breakdown);
      console.log(
        `  measuring overhead, end to end at ${fmt(rate)} events/s: untraced ${p50p99(untraced.get(rate) ?? [])} · traced ${p50p99(receipts)}`,
      );
    }
  } finally {
    await pipeline.close();
    await collector.stop();
  }
}

async function main() {
  console.log(
    `machine: ${cpus().length} cores, node ${process.version}; ${mode}; broker on the same machine; ${partitions} partitions; events ~${eventBytes} bytes; destination ${destination}; ${await machineFigures()}`,
  );
  const untraced = await untracedPhases();
  if (phases.has('breakdown')) await breakdownPhase(untraced);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
