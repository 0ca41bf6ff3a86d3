/**
 * What the attempts topic costs end to end, measured so that the machine's own drift
 * cancels out. Two whole pipelines run side by side on the one broker, identical but for
 * DELIVERY_ATTEMPTS_TOPIC; the bench measures their throughput in short turns (one pipeline sends
 * while the other idles), in the order off-on, on-off, … so a VM that slows down or speeds up
 * during the run weighs on both alike. Separate runs of bench:e2e on a shared VM differ by more
 * than the small cost they are meant to resolve (bench/README.md, "Reading the figures").
 *
 *   npm run bench:attempts -- [--rounds 10] [--seconds 10] [--partitions 6] [--bytes 500]
 */
import { cpus } from 'node:os';
import { fmt, machineSpeedMs, numberArg } from './bench-kit';
import { BenchPipeline, measureThroughput, startBenchPipeline } from './pipeline-kit';

const rounds = numberArg('rounds', 10);
const seconds = numberArg('seconds', 10);
const partitions = numberArg('partitions', 6);
const eventBytes = numberArg('bytes', 500);

/** Two-sided 95 % quantiles of Student's t for n − 1 degrees of freedom, n = 2…30; beyond, the normal's. */
const T95 = [
  12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.2, 2.18, 2.16, 2.14, 2.13, 2.12, 2.11, 2.1,
  2.09, 2.09, 2.08, 2.07, 2.07, 2.06, 2.06, 2.06, 2.05, 2.05, 2.05,
];

function meanAndHalfWidth(values: number[]): { mean: number; halfWidth: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  if (values.length < 2) return { mean, halfWidth: Number.NaN };
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1);
  return { mean, halfWidth: (T95[values.length - 2] ?? 1.96) * Math.sqrt(variance / values.length) };
}

async function main() {
  const pipelines: Record<'off' | 'on', BenchPipeline> = {
    off: await startBenchPipeline({
      partitions,
      deliveryReplicas: 1,
      env: { DELIVERY_ATTEMPTS_TOPIC: 'false' },
    }),
    on: await startBenchPipeline({
      partitions,
      deliveryReplicas: 1,
      env: { DELIVERY_ATTEMPTS_TOPIC: 'true' },
    }),
  };
  try {
    const turn = async (mode: 'off' | 'on') => {
      const run = await measureThroughput(pipelines[mode], seconds, eventBytes);
      return run.events / run.elapsed;
    };
    // A first turn each warms the JIT, the connections and the topics' first segments; not counted.
    await turn('off');
    await turn('on');
    const costs: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const order: Array<'off' | 'on'> = round % 2 ? ['off', 'on'] : ['on', 'off'];
      const speed = machineSpeedMs();
      const rate = { off: 0, on: 0 };
      for (const mode of order) rate[mode] = await turn(mode);
      const cost = (1 - rate.on / rate.off) * 100;
      costs.push(cost);
      console.log(
        `round ${round} (${order.join(', ')}): off ${fmt(rate.off)} events/s, on ${fmt(rate.on)} events/s, cost ${fmt(cost, 1)} % (machine speed ${fmt(speed)} ms)`,
      );
    }
    const { mean, halfWidth } = meanAndHalfWidth(costs);
    const sorted = [...costs].sort((a, b) => a - b);
    const median =
      (sorted[Math.floor((sorted.length - 1) / 2)] + sorted[Math.ceil((sorted.length - 1) / 2)]) / 2;
    console.log(
      `machine: ${cpus().length} cores, node ${process.version}; broker on the same machine; ${partitions} partitions; events ~${eventBytes} bytes; ${rounds} rounds of ${seconds} s turns`,
    );
    console.log(
      `attempts topic cost: mean ${fmt(mean, 1)} % ± ${fmt(halfWidth, 1)} (95 % interval), median ${fmt(median, 1)} %, rounds ${fmt(sorted[0], 1)} to ${fmt(sorted.at(-1) ?? Number.NaN, 1)} % (positive: slower with the topic on)`,
    );
  } finally {
    await Promise.all(Object.values(pipelines).map((p) => p.close()));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
