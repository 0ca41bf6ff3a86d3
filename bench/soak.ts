/**
 * Soak: the whole pipeline (ingest → router → delivery → a local receiver, compiled processes with
 * the production flags) at a steady open-loop `--rate` events/s for `--minutes`. Every 10 s it
 * prints each service's resident memory, so growth shows as a trend, not a single peak; at the
 * end, each one's peak and its median over the last minute (where it settled), and the CPU each
 * process and the broker used. `--rate 0` measures an idle pipeline (heartbeats, polling).
 *
 *   npm run bench:soak -- [--minutes 5] [--rate 1500] [--partitions 6] [--bytes 500]
 */
import { cpus } from 'node:os';
import {
  cpuSeconds,
  fmt,
  localBrokerPid,
  machineSpeedMs,
  numberArg,
  peakRssMb,
  percentile,
  rssMb,
} from './bench-kit';
import { benchEvent, startBenchPipeline, waitUntil } from './pipeline-kit';

const minutes = numberArg('minutes', 5);
const rate = numberArg('rate', 1500);
const partitions = numberArg('partitions', 6);
const eventBytes = numberArg('bytes', 500);
const TICK_MS = 10;
const REPORT_EVERY_MS = 10_000;
const RSS_TARGET_MB = 200;

async function main() {
  const pipeline = await startBenchPipeline({ partitions, deliveryReplicas: 1 });
  const { procs, receipts, send } = pipeline;
  const names = Object.keys(procs);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  console.log(
    `machine: ${cpus().length} cores, node ${process.version}; ${partitions} partitions; events ~${eventBytes} bytes; ${fmt(rate)} events/s for ${minutes} min; machine speed ${fmt(machineSpeedMs())} ms (lower is faster)`,
  );
  console.log(
    `   t  ${'sent'.padStart(9)} ${'delivered'.padStart(9)}  ${names.map((n) => `${n} RSS`.padStart(14)).join(' ')}`,
  );
  const brokerPid = localBrokerPid();
  const cpuPids: Record<string, number | undefined> = {
    ...Object.fromEntries(names.map((n) => [n, procs[n].child.pid])),
    broker: brokerPid,
  };
  const cpu0 = Object.fromEntries(Object.entries(cpuPids).map(([n, pid]) => [n, cpuSeconds(pid)]));
  try {
    const perTick = Math.round((rate * TICK_MS) / 1000);
    const start = Date.now();
    const end = start + minutes * 60_000;
    let sent = 0;
    let nextReport = start + REPORT_EVERY_MS;
    const pending = new Set<Promise<void>>();
    let failed: unknown;
    for (let tick = 0; ; tick++) {
      const due = start + tick * TICK_MS;
      if (due >= end) break;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (perTick > 0) {
        const request = send(Array.from({ length: perTick }, () => benchEvent(sent++, eventBytes))).catch(
          (e: unknown) => void (failed ??= e),
        );
        pending.add(request);
        void request.finally(() => pending.delete(request));
      }
      if (failed) throw failed;
      if (Date.now() >= nextReport) {
        nextReport += REPORT_EVERY_MS;
        const now = names.map((n) => rssMb(procs[n].child.pid));
        names.forEach((n, k) => samples[n].push(now[k]));
        const t = Math.round((Date.now() - start) / 1000);
        console.log(
          `${String(t).padStart(4)}s ${fmt(sent).padStart(9)} ${fmt(receipts.length).padStart(9)}  ${now.map((mb) => `${fmt(mb)} MB`.padStart(14)).join(' ')}`,
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
    const lastMinute = Math.max(1, Math.round(60_000 / REPORT_EVERY_MS));
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
      const settled = percentile(
        samples[n].slice(-lastMinute).sort((a, b) => a - b),
        50,
      );
      const peak = peakRssMb(procs[n].child.pid);
      console.log(
        `${n.padEnd(8)} RSS settled (median of the last minute) ${fmt(settled)} MB, peak ${fmt(peak)} MB${peak > RSS_TARGET_MB ? `: over the ${RSS_TARGET_MB} MB target` : ''}`,
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
