/**
 * What one option costs end to end, measured so that the machine's own drift cancels out. Two
 * whole pipelines run side by side on the one broker, identical but for the option; the bench
 * measures their throughput in short turns (one pipeline sends while the other idles), in the
 * order without-with, with-without, … so a VM that slows down or speeds up during the run weighs
 * on both alike. Separate runs of bench:e2e on a shared VM differ by more than the small costs
 * they are meant to resolve (bench/README.md, "Reading the figures").
 *
 * The options (`--option`):
 *  - `attempts-topic`: DELIVERY_ATTEMPTS_TOPIC true against false;
 *  - `filtered-standard`: the destination variant of that name (Standard Webhooks signing and two
 *    filter rules, bench/destination-variants.ts) against plain `segment` signing;
 *  - `build`: this checkout's services against those of another built checkout (`--against`), to
 *    show a change costs nothing end to end. Both run with this checkout's runtime flags;
 *  - `node-flags`: the Node flags in `--flags` for ingest, the router and delivery against each
 *    one's runtime setting (config/runtime-flags.env), to show what a heap setting costs;
 *    `--ingest-flags`, `--router-flags` and `--delivery-flags` give one service other flags;
 *  - `env`: the settings in `--env` (NAME=value, space-separated) for every service against their
 *    runtime values, to show what a malloc setting (MALLOC_*) or any other setting costs.
 *
 *   npm run bench:cost -- --option attempts-topic|filtered-standard|build|node-flags|env
 *     [--against ../before] [--flags '--max-old-space-size=160 …'] [--delivery-flags '…']
 *     [--env 'NAME=value …']
 *     [--rounds 10] [--seconds 10]
 *     [--partitions 6] [--bytes 500]
 */
import { cpus } from 'node:os';
import {
  againstArg,
  choiceArg,
  cpuSeconds,
  envArg,
  fmt,
  machineSpeedMs,
  numberArg,
  spreadLine,
  stringArg,
} from './bench-kit';
import { BenchPipeline, measureThroughput, PipelineOptions, startBenchPipeline } from './pipeline-kit';

const rounds = numberArg('rounds', 10);
const seconds = numberArg('seconds', 10);
const partitions = numberArg('partitions', 6);
const eventBytes = numberArg('bytes', 500);
const option = choiceArg('option', [
  'attempts-topic',
  'filtered-standard',
  'build',
  'node-flags',
  'env',
] as const);

type Side = 'without' | 'with';

/** Each side's pipeline options beside the common ones. */
const SIDES: Record<typeof option, Record<Side, Partial<PipelineOptions>>> = {
  'attempts-topic': {
    without: { env: { DELIVERY_ATTEMPTS_TOPIC: 'false' } },
    with: { env: { DELIVERY_ATTEMPTS_TOPIC: 'true' } },
  },
  'filtered-standard': {
    without: { destination: 'segment' },
    with: { destination: 'filtered-standard' },
  },
  build: { without: { checkout: option === 'build' ? againstArg() : undefined }, with: {} },
  'node-flags': { without: {}, with: { nodeFlags: option === 'node-flags' ? flagsArg() : undefined } },
  env: { without: {}, with: { env: option === 'env' ? requiredEnvArg() : undefined } },
};

/**
 * The Node flags the `node-flags` comparison gives ingest, the router and delivery: `--flags` for
 * all three, `--<service>-flags` for one. A service given neither keeps its runtime setting.
 */
function flagsArg() {
  const flags = stringArg('flags', '');
  const each = {
    ingest: stringArg('ingest-flags', flags) || undefined,
    router: stringArg('router-flags', flags) || undefined,
    delivery: stringArg('delivery-flags', flags) || undefined,
  };
  if (!each.ingest && !each.router && !each.delivery) {
    throw new Error("--option node-flags needs --flags '<the Node flags to compare>' or --<service>-flags");
  }
  return each;
}

/** `--env`, the settings the `env` comparison gives every service. */
function requiredEnvArg() {
  const env = envArg('env');
  if (!Object.keys(env).length) throw new Error("--option env needs --env 'NAME=value …'");
  return env;
}

async function main() {
  const start = (side: Side) =>
    startBenchPipeline({ partitions, deliveryReplicas: 1, ...SIDES[option][side] });
  const pipelines: Record<Side, BenchPipeline> = {
    without: await start('without'),
    with: await start('with'),
  };
  try {
    /** A turn's delivered events/s, and the CPU its pipeline's services spent per 1,000 events. */
    const turn = async (side: Side) => {
      const pids = Object.values(pipelines[side].procs).map((p) => p.child.pid);
      const cpu = () => pids.reduce<number>((sum, pid) => sum + cpuSeconds(pid), 0);
      const cpu0 = cpu();
      const run = await measureThroughput(pipelines[side], seconds, eventBytes);
      return { rate: run.events / run.elapsed, cpuMs: ((cpu() - cpu0) * 1e6) / run.events };
    };
    // A first turn each warms the JIT, the connections and the topics' first segments; not counted.
    await turn('without');
    await turn('with');
    const costs: number[] = [];
    const cpuCosts: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const order: Side[] = round % 2 ? ['without', 'with'] : ['with', 'without'];
      const speed = machineSpeedMs();
      const result = {} as Record<Side, { rate: number; cpuMs: number }>;
      for (const side of order) result[side] = await turn(side);
      const { without, with: withOption } = result;
      costs.push((1 - withOption.rate / without.rate) * 100);
      cpuCosts.push((withOption.cpuMs / without.cpuMs - 1) * 100);
      console.log(
        `round ${round} (${order.join(', ')}): without ${fmt(without.rate)} events/s, ${fmt(without.cpuMs)} CPU-ms per 1,000; with ${fmt(withOption.rate)} events/s, ${fmt(withOption.cpuMs)} CPU-ms per 1,000; cost ${fmt(costs.at(-1)!, 1)} % of throughput, ${fmt(cpuCosts.at(-1)!, 1)} % of CPU (machine speed ${fmt(speed)} ms)`,
      );
    }
    console.log(
      `machine: ${cpus().length} cores, node ${process.version}; broker on the same machine; ${partitions} partitions; events ~${eventBytes} bytes; ${rounds} rounds of ${seconds} s turns`,
    );
    console.log(
      `${option} cost in throughput: ${spreadLine(costs, ' %')} (positive: slower with the option)`,
    );
    console.log(
      `${option} cost in CPU per event, all services: ${spreadLine(cpuCosts, ' %')} (positive: dearer with the option)`,
    );
  } finally {
    await Promise.all(Object.values(pipelines).map((p) => p.close()));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
