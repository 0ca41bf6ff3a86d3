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
import { cpus } from 'node:os';
import { benchEvent, measureThroughput, startBenchPipeline, waitUntil } from './pipeline-kit';
import {
  cpuSeconds,
  fmt,
  localBrokerPid,
  machineSpeedMs,
  numberArg,
  peakRssMb,
  percentile,
} from './bench-kit';

const seconds = numberArg('seconds', 10);
const rate = numberArg('rate', 1000);
const partitions = numberArg('partitions', 6);
const eventBytes = numberArg('bytes', 500);
const deliveryReplicas = numberArg('delivery-replicas', 1);
const event = (i: number) => benchEvent(i, eventBytes);

async function main() {
  const pipeline = await startBenchPipeline({ partitions, deliveryReplicas });
  const { procs, receipts, send } = pipeline;
  try {
    const cpu0 = Object.fromEntries(Object.entries(procs).map(([k, p]) => [k, cpuSeconds(p.child.pid)]));
    const brokerPid = localBrokerPid();
    const brokerCpu0 = cpuSeconds(brokerPid);
    const benchCpu0 = process.cpuUsage();
    const { events: delivered, elapsed } = await measureThroughput(pipeline, seconds, eventBytes);
    const throughput = delivered / elapsed;
    const cpu = Object.fromEntries(
      Object.entries(procs).map(([k, p]) => [k, (cpuSeconds(p.child.pid) - cpu0[k]) / elapsed]),
    );
    const brokerCpu = (cpuSeconds(brokerPid) - brokerCpu0) / elapsed;
    const benchCpu = process.cpuUsage(benchCpu0);

    // Latency at a fixed open-loop rate, in batches of 10 every 10 ms.
    let i = delivered;
    const before = receipts.length;
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
    await waitUntil(() => receipts.length - before >= sent, 60_000);
    const latencies = receipts
      .slice(before)
      .map((r) => r.latencyMs)
      .sort((a, b) => a - b);

    console.log(
      `machine: ${cpus().length} cores, node ${process.version}; broker on the same machine; ${partitions} partitions; events ~${eventBytes} bytes; machine speed ${fmt(machineSpeedMs())} ms (lower is faster)`,
    );
    console.log(
      `throughput: ${fmt(throughput)} events/s delivered to the webhook (${fmt(delivered)} events in ${fmt(elapsed, 1)} s)`,
    );
    console.log(
      `latency at ${fmt(rate)} events/s: p50 ${fmt(percentile(latencies, 50), 1)} ms, p99 ${fmt(percentile(latencies, 99), 1)} ms, max ${fmt(latencies.at(-1) ?? NaN)} ms (${fmt(latencies.length)} of ${fmt(sent)} received)`,
    );
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
  } finally {
    await pipeline.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
