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
 *    runtime values, to show what a malloc setting (MALLOC_*) or any other setting costs;
 *  - `all-in-one`: ingest, router and delivery in one process against one process each.
 *
 * `--mode all-in-one` runs both sides as the all-in-one process (every option but `all-in-one`);
 * there `node-flags` compares the process's flags (`--flags`) with ALL_IN_ONE_NODE_FLAGS.
 *
 * With `--rate`, each turn is an open loop at that many events/s instead of the closed loop, and
 * a round compares the two sides' latency (p50 and p99, in ms) and CPU per event: what an option
 * costs an event's way at a low rate, where one separate run's p50 moves by more than the change.
 *
 *   npm run bench:cost -- --option attempts-topic|filtered-standard|build|node-flags|env|all-in-one
 *     [--against ../before] [--flags '--max-old-space-size=160 …'] [--delivery-flags '…']
 *     [--env 'NAME=value …'] [--mode split|all-in-one]
 *     [--rounds 10] [--seconds 10] [--rate <events/s>]
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
  percentile,
  ProcessFlags,
  spreadLine,
  stringArg,
} from './bench-kit';
import {
  BenchPipeline,
  measureThroughput,
  openLoop,
  modeArg,
  withConsoleArg,
  PipelineOptions,
  startBenchPipeline,
} from './pipeline-kit';

const rounds = numberArg('rounds', 10);
const seconds = numberArg('seconds', 10);
const partitions = numberArg('partitions', 6);
const eventBytes = numberArg('bytes', 500);
/** Events/s of an open-loop turn; 0 (the default) for closed-loop turns. */
const openLoopRate = numberArg('rate', 0);
const option = choiceArg('option', [
  'attempts-topic',
  'filtered-standard',
  'build',
  'node-flags',
  'env',
  'all-in-one',
  'console',
] as const);
const mode = modeArg();
if (mode === 'all-in-one' && option === 'all-in-one')
  throw new Error('--option all-in-one compares the two modes: leave out --mode');
if (option === 'console' && mode !== 'all-in-one')
  throw new Error(
    '--option console compares the one process with and without the console: add --mode all-in-one',
  );
/** Both sides' one process runs the console too, as `npm start` does. */
const withConsole = option !== 'console' && withConsoleArg(mode);

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
  'all-in-one': { without: {}, with: { allInOne: true } },
  console: { without: {}, with: { withConsole: true } },
};

/**
 * The Node flags the `node-flags` comparison gives ingest, the router and delivery: `--flags` for
 * all three, `--<service>-flags` for one. A service given neither keeps its runtime setting. In
 * the all-in-one mode, `--flags` are the one process's.
 */
function flagsArg(): ProcessFlags {
  const flags = stringArg('flags', '');
  if (mode === 'all-in-one') {
    if (!flags)
      throw new Error("--option node-flags --mode all-in-one needs --flags '<the Node flags to compare>'");
    return { 'all-in-one': flags };
  }
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
    startBenchPipeline({
      partitions,
      deliveryReplicas: 1,
      allInOne: mode === 'all-in-one',
      withConsole,
      ...SIDES[option][side],
    });
  const pipelines: Record<Side, BenchPipeline> = {
    without: await start('without'),
    with: await start('with'),
  };
  try {
    const turn = async (side: Side): Promise<Turn> => {
      const pids = Object.values(pipelines[side].procs).map((p) => p.child.pid);
      const cpu = () => pids.reduce<number>((sum, pid) => sum + cpuSeconds(pid), 0);
      const cpu0 = cpu();
      const cpuMsPer1000 = (events: number) => ((cpu() - cpu0) * 1e6) / events;
      if (openLoopRate > 0) {
        const { sent, receipts } = await openLoop(pipelines[side], openLoopRate, seconds, eventBytes);
        const latencies = receipts.map((r) => r.latencyMs).sort((a, b) => a - b);
        return {
          rate: openLoopRate,
          cpuMs: cpuMsPer1000(sent),
          p50Ms: percentile(latencies, 50),
          p99Ms: percentile(latencies, 99),
        };
      }
      const run = await measureThroughput(pipelines[side], seconds, eventBytes);
      return { rate: run.events / run.elapsed, cpuMs: cpuMsPer1000(run.events), p50Ms: NaN, p99Ms: NaN };
    };
    // A first turn each warms the JIT, the connections and the topics' first segments; not counted.
    await turn('without');
    await turn('with');
    const costs = {
      throughput: [] as number[],
      cpu: [] as number[],
      p50: [] as number[],
      p99: [] as number[],
    };
    for (let round = 1; round <= rounds; round++) {
      const order: Side[] = round % 2 ? ['without', 'with'] : ['with', 'without'];
      const speed = machineSpeedMs();
      const result = {} as Record<Side, Turn>;
      for (const side of order) result[side] = await turn(side);
      const { without, with: withOption } = result;
      costs.throughput.push((1 - withOption.rate / without.rate) * 100);
      costs.cpu.push((withOption.cpuMs / without.cpuMs - 1) * 100);
      costs.p50.push(withOption.p50Ms - without.p50Ms);
      costs.p99.push(withOption.p99Ms - without.p99Ms);
      console.log(
        `round ${round} (${order.join(', ')}): without ${turnLine(without)}; with ${turnLine(withOption)}; ${roundCost(costs, round - 1)} (machine speed ${fmt(speed)} ms)`,
      );
    }
    console.log(
      `machine: ${cpus().length} cores, node ${process.version}; broker on the same machine; ${option === 'all-in-one' ? 'split against all-in-one' : mode}; ${partitions} partitions; events ~${eventBytes} bytes; ${rounds} rounds of ${seconds} s turns${openLoopRate > 0 ? `, open loop at ${fmt(openLoopRate)} events/s` : ''}`,
    );
    if (openLoopRate > 0) {
      console.log(
        `${option} cost in p50 latency: ${spreadLine(costs.p50, ' ms', 2)} (positive: slower with the option)`,
      );
      console.log(
        `${option} cost in p99 latency: ${spreadLine(costs.p99, ' ms', 2)} (positive: slower with the option)`,
      );
    } else {
      console.log(
        `${option} cost in throughput: ${spreadLine(costs.throughput, ' %')} (positive: slower with the option)`,
      );
    }
    console.log(
      `${option} cost in CPU per event, all services: ${spreadLine(costs.cpu, ' %')} (positive: dearer with the option)`,
    );
  } finally {
    await Promise.all(Object.values(pipelines).map((p) => p.close()));
  }
}

/** One side's turn: delivered events/s (the open loop's rate), CPU per 1,000 events, latency (open loop only). */
interface Turn {
  rate: number;
  cpuMs: number;
  p50Ms: number;
  p99Ms: number;
}

function turnLine({ rate, cpuMs, p50Ms, p99Ms }: Turn): string {
  const cpu = `${fmt(cpuMs)} CPU-ms per 1,000`;
  return openLoopRate > 0
    ? `p50 ${fmt(p50Ms, 2)} ms, p99 ${fmt(p99Ms, 1)} ms, ${cpu}`
    : `${fmt(rate)} events/s, ${cpu}`;
}

function roundCost(costs: Record<'throughput' | 'cpu' | 'p50' | 'p99', number[]>, i: number): string {
  const cpu = `${fmt(costs.cpu[i], 1)} % of CPU`;
  return openLoopRate > 0
    ? `cost ${fmt(costs.p50[i], 2)} ms of p50, ${fmt(costs.p99[i], 1)} ms of p99, ${cpu}`
    : `cost ${fmt(costs.throughput[i], 1)} % of throughput, ${cpu}`;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
