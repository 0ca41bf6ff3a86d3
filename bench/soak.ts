/**
 * Soak: the whole pipeline (ingest → router → delivery → a local receiver, compiled processes with
 * the production flags) at a steady open-loop `--rate` events/s for `--minutes`. Every `--every`
 * seconds it prints each process's resident memory (VmRSS) and V8 heap in use (its /metrics), so
 * growth shows as a trend, not a single peak; at the end, each one's steady state (median of the
 * last minute, or of the second half of a shorter run) and peak, and the CPU each process and the
 * broker used. `--rate 0` measures an idle pipeline (heartbeats, polling).
 *
 * `--mode all-in-one` runs the three services in one process (ALL_IN_ONE_NODE_FLAGS) instead of
 * one process each (`split`, the default). The target is the lower one up to 500 events/s for the
 * split services, the higher one above that rate and for the all-in-one process.
 *
 *   npm run bench:soak -- [--minutes 5] [--rate 1500] [--mode split|all-in-one] [--every 10]
 *                         [--partitions 6] [--bytes 500]
 */
import { cpus } from 'node:os';
import {
  cpuSeconds,
  fmt,
  localBrokerPid,
  machineSpeedMs,
  median,
  numberArg,
  peakRssMb,
  percentile,
  rssMb,
  rssPartsMb,
} from './bench-kit';
import { benchEvent, modeArg, startBenchPipeline, waitUntil } from './pipeline-kit';
import { ServiceProcess } from '../test/support/service-process';

const minutes = numberArg('minutes', 5);
const rate = numberArg('rate', 1500);
const mode = modeArg();
const reportEveryMs = numberArg('every', 10) * 1000;
const partitions = numberArg('partitions', 6);
const eventBytes = numberArg('bytes', 500);
const TICK_MS = 10;
const RSS_TARGET_MB = mode === 'split' && rate <= 500 ? 120 : 200;

/** V8 heap in use (prom-client's default metric on the service's /metrics), in MB; NaN if it does not answer. */
async function heapUsedMb(service: ServiceProcess): Promise<number> {
  try {
    const text = await (await fetch(`${service.url}/metrics`)).text();
    const match = /^nodejs_heap_size_used_bytes (\d+)/m.exec(text);
    return match ? Number(match[1]) / 2 ** 20 : NaN;
  } catch {
    return NaN;
  }
}

interface Sample {
  rss: number;
  heap: number;
}

async function main() {
  const pipeline = await startBenchPipeline({
    partitions,
    deliveryReplicas: 1,
    allInOne: mode === 'all-in-one',
  });
  const { procs, receipts, send } = pipeline;
  const names = Object.keys(procs);
  const samples: Record<string, Sample[]> = Object.fromEntries(names.map((n) => [n, []]));
  console.log(
    `machine: ${cpus().length} cores, node ${process.version}; ${mode}; ${partitions} partitions; events ~${eventBytes} bytes; ${fmt(rate)} events/s for ${minutes} min; machine speed ${fmt(machineSpeedMs())} ms (lower is faster)`,
  );
  console.log(
    `   t  ${'sent'.padStart(9)} ${'delivered'.padStart(9)}  ${names.map((n) => `${n} RSS / heap`.padStart(24)).join(' ')}`,
  );
  const brokerPid = localBrokerPid();
  const cpuPids: Record<string, number | undefined> = {
    ...Object.fromEntries(names.map((n) => [n, procs[n].child.pid])),
    broker: brokerPid,
  };
  const cpu0 = Object.fromEntries(Object.entries(cpuPids).map(([n, pid]) => [n, cpuSeconds(pid)]));
  try {
    const start = Date.now();
    const end = start + minutes * 60_000;
    let sent = 0;
    let nextReport = start + reportEveryMs;
    const pending = new Set<Promise<void>>();
    let failed: unknown;
    for (let tick = 0; ; tick++) {
      const due = start + tick * TICK_MS;
      if (due >= end) break;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      // Whole events due by the end of this tick: a rate below one event per tick still averages out.
      const thisTick = Math.floor((rate * (tick + 1) * TICK_MS) / 1000) - sent;
      if (thisTick > 0) {
        const request = send(Array.from({ length: thisTick }, () => benchEvent(sent++, eventBytes))).catch(
          (e: unknown) => void (failed ??= e),
        );
        pending.add(request);
        void request.finally(() => pending.delete(request));
      }
      if (failed) throw failed;
      if (Date.now() >= nextReport) {
        nextReport += reportEveryMs;
        const now = await Promise.all(
          names.map(async (n) => ({ rss: rssMb(procs[n].child.pid), heap: await heapUsedMb(procs[n]) })),
        );
        names.forEach((n, k) => samples[n].push(now[k]));
        const t = Math.round((Date.now() - start) / 1000);
        console.log(
          `${String(t).padStart(4)}s ${fmt(sent).padStart(9)} ${fmt(receipts.length).padStart(9)}  ${now
            .map(({ rss, heap }) => `${fmt(rss)} / ${fmt(heap)} MB`.padStart(24))
            .join(' ')}`,
        );
      }
    }
    const elapsed = (Date.now() - start) / 1000;
    const cpu = Object.entries(cpuPids)
      .filter(([, pid]) => pid)
      .map(([n, pid]) => `${n} ${fmt(((cpuSeconds(pid) - cpu0[n]) / elapsed) * 100, 1)}%`);
    await Promise.all(pending);
    await waitUntil(() => receipts.length >= sent, 120_000);
    console.log(`CPU over the run: ${cpu.join(', ')}`);
    console.log(
      `delivered ${fmt(receipts.length)} of ${fmt(sent)} events; latency p50 ${fmt(
        percentile(
          receipts.map((r) => r.latencyMs).sort((a, b) => a - b),
          50,
        ),
        1,
      )} ms`,
    );
    for (const n of names) {
      const all = samples[n];
      const steady = all.slice(-Math.max(1, Math.min(60_000 / reportEveryMs, Math.ceil(all.length / 2))));
      const peak = peakRssMb(procs[n].child.pid);
      const over = Math.max(median(steady.map((s) => s.rss)), peak) > RSS_TARGET_MB;
      const { anonymous, fileBacked } = rssPartsMb(procs[n].child.pid);
      console.log(
        `${n.padEnd(10)} RSS steady ${fmt(median(steady.map((s) => s.rss)))} MB, peak ${fmt(peak)} MB; heap in use steady ${fmt(
          median(steady.map((s) => s.heap)),
        )} MB, peak ${fmt(Math.max(...all.map((s) => s.heap)))} MB; at the end ${fmt(anonymous)} MB anonymous, ${fmt(fileBacked)} MB file-backed${over ? `: over the ${RSS_TARGET_MB} MB target` : ''}`,
      );
    }
  } finally {
    await pipeline.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
