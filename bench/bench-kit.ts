import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EntryName, freePort, ServiceProcess } from '../test/support/service-process';

export const repoRoot = join(__dirname, '..');

export type ServiceName = 'ingest' | 'router' | 'delivery' | 'console';

/** The runtime flags file's NAME="${NAME:-value}" lines, as name → value. */
function runtimeFlags(): Record<string, string> {
  const text = readFileSync(join(repoRoot, 'config', 'runtime-flags.env'), 'utf8');
  const lines = [...text.matchAll(/^([A-Z_]+)="\$\{\1:-(.*)\}"$/gm)];
  return Object.fromEntries(lines.map(([, name, value]) => [name, value]));
}

const RUNTIME_FLAGS = runtimeFlags();

/**
 * A runtime setting as a benchmark applies it: the environment's value when set (the file lets the
 * environment override each line, and scripts/start.sh and the image honour that), else the file's.
 * So `ROUTER_NODE_FLAGS='--max-old-space-size=160' npm run bench:soak` measures another setting.
 */
function runtimeSetting(name: string): string {
  return process.env[name] ?? RUNTIME_FLAGS[name];
}

/** Node flags of a runtime setting as a command line's words. */
const flagWords = (value: string) => value.split(' ').filter(Boolean);

/**
 * The V8 heap flags each service runs with in production, from config/runtime-flags.env
 * (command-line flags: Node refuses --initial-old-space-size in NODE_OPTIONS).
 */
export const SERVICE_HEAP_FLAGS = Object.fromEntries(
  (['ingest', 'router', 'delivery', 'console'] as const).map((service) => [
    service,
    flagWords(RUNTIME_FLAGS[`${service.toUpperCase()}_NODE_FLAGS`]),
  ]),
) as Record<ServiceName, string[]>;

/** The V8 heap flags of the all-in-one process in production, from config/runtime-flags.env. */
export const ALL_IN_ONE_HEAP_FLAGS = flagWords(RUNTIME_FLAGS.ALL_IN_ONE_NODE_FLAGS);

/** The glibc malloc settings of config/runtime-flags.env. */
export const SERVICE_MALLOC_ENV = Object.fromEntries(
  Object.entries(RUNTIME_FLAGS).filter(([name]) => name.startsWith('MALLOC_')),
);

/** The malloc settings a benchmark's services get: the file's, each overridable by the environment. */
const benchMallocEnv = () =>
  Object.fromEntries(Object.keys(SERVICE_MALLOC_ENV).map((name) => [name, runtimeSetting(name)]));

const benchNodeOptions = () =>
  `--disable-warning=TimeoutNegativeWarning ${process.env.BENCH_NODE_OPTIONS ?? ''}`;

/**
 * Starts a service's compiled main (run `npm run build` first) with the production heap flags
 * and malloc settings, as its own process; resolves when /health/ready answers 200.
 * BENCH_NODE_OPTIONS adds flags (e.g. --cpu-prof); INGEST_NODE_FLAGS and its siblings, and the
 * MALLOC_* variables, replace the file's values. `checkout` runs another checkout's build (to
 * compare two commits), with this checkout's flags; `nodeFlags` replaces the service's flags (to
 * compare two settings side by side).
 */
export function startService(
  name: ServiceName,
  env: NodeJS.ProcessEnv,
  port: number,
  { checkout, nodeFlags }: BuildAndFlags = {},
): Promise<ServiceProcess> {
  assertBuilt(checkout, name);
  return ServiceProcess.start(
    name,
    port,
    { ...benchMallocEnv(), ...env },
    {
      compiled: true,
      checkout,
      nodeArgs: flagWords(nodeFlags ?? runtimeSetting(`${name.toUpperCase()}_NODE_FLAGS`)),
      nodeOptions: benchNodeOptions(),
    },
  );
}

/** Which checkout's build a process runs (this one by default), and Node flags replacing its runtime setting. */
interface BuildAndFlags {
  checkout?: string;
  nodeFlags?: string;
}

/** Fails early, naming the checkout, when `checkout` holds no build of `entry`. */
function assertBuilt(checkout: string | undefined, entry: EntryName): void {
  if (checkout && !existsSync(join(checkout, 'dist', 'apps', entry, 'src', 'main.js')))
    throw new Error(`${checkout} has no build of ${entry}: run npm run build there`);
}

/**
 * Node flags per process, as a comparison gives them instead of the runtime settings: each split
 * service's, and the all-in-one process's.
 */
export type ProcessFlags = Partial<Record<ServiceName | 'all-in-one', string>>;

/**
 * Starts the all-in-one process (dist/apps/switchyard/src/main.js) running `services`, with
 * ALL_IN_ONE_NODE_FLAGS (or `nodeFlags`) and the malloc settings, as startService starts one
 * service, from this checkout or `checkout`. Each service listens on a free port; the handle's URL
 * is the first service's.
 */
export async function startAllInOne(
  services: ServiceName[],
  env: NodeJS.ProcessEnv,
  { checkout, nodeFlags }: BuildAndFlags = {},
): Promise<ServiceProcess> {
  assertBuilt(checkout, 'switchyard');
  const ports: NodeJS.ProcessEnv = {};
  for (const service of services) ports[`${service.toUpperCase()}_PORT`] = String(await freePort());
  return ServiceProcess.start(
    'switchyard',
    Number(ports[`${services[0].toUpperCase()}_PORT`]),
    { ...benchMallocEnv(), ...env, ...ports, SWITCHYARD_SERVICES: services.join(',') },
    {
      compiled: true,
      checkout,
      nodeArgs: flagWords(nodeFlags ?? runtimeSetting('ALL_IN_ONE_NODE_FLAGS')),
      nodeOptions: benchNodeOptions(),
    },
  );
}

/** A vocabulary of 512 made-up words, 2-9 letters, the same in every run. */
const WORDS = (() => {
  let state = 0x2545f491;
  const next = () => (state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0);
  return Array.from({ length: 512 }, () =>
    Array.from({ length: 2 + (next() % 8) }, () => String.fromCharCode(97 + (next() % 26))).join(''),
  );
})();

/**
 * Filler text of `length` characters for benchmark events: words drawn from a fixed vocabulary,
 * seeded by `seed`. Repeated characters ('xxxx…') compress about 50:1, which flatters every
 * compressed hop and inflates what one compressed fetch holds; text like this compresses about
 * 3:1, as real event properties do.
 */
export function fillerText(length: number, seed: number): string {
  let state = (seed * 2654435761) >>> 0 || 1;
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const word = WORDS[(state >>> 0) % WORDS.length];
    parts.push(word);
    size += word.length + 1;
  }
  return parts.join(' ').slice(0, length);
}

/**
 * How fast this machine is right now: milliseconds for a fixed piece of JSON work (lower is
 * faster). This shared VM's speed moves by a third between runs; printed beside each result, it
 * tells a slow machine from a slow change.
 */
export function machineSpeedMs(): number {
  const sample = speedSample();
  const run = (times: number) => {
    const started = performance.now();
    for (let i = 0; i < times; i++) jsonRoundTrip(sample);
    return performance.now() - started;
  };
  run(5_000); // warm-up: compiled code, not the interpreter, is what is timed
  return run(20_000);
}

const jsonRoundTrip = (value: object): unknown => JSON.parse(JSON.stringify(value));

const speedSample = () => ({
  type: 'track',
  userId: 'user-1',
  event: 'Order Completed',
  properties: { revenue: 42.5, items: [{ sku: 'a', qty: 2 }], note: 'x'.repeat(200) },
});

/**
 * What a short sleep costs the work after it: the median microseconds of one JSON round trip of
 * the sample, run back to back and run after each of 40 sleeps of 20 ms (one event's gap at 50
 * events/s). Where other guests of the host evict this VM's caches within milliseconds, the
 * second is many times the first, and it, not the machine speed, moves the latency at low rates.
 */
export async function wakeUpCostUs(): Promise<{ warm: number; afterSleep: number }> {
  const sample = speedSample();
  const timeOne = () => {
    const started = performance.now();
    jsonRoundTrip(sample);
    return (performance.now() - started) * 1000;
  };
  for (let i = 0; i < 5_000; i++) timeOne();
  const warm = median(Array.from({ length: 41 }, timeOne));
  const afterSleep: number[] = [];
  for (let i = 0; i < 41; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    afterSleep.push(timeOne());
  }
  return { warm, afterSleep: median(afterSleep) };
}

/** The machine's figures for a benchmark's first line: its speed and what a 20 ms sleep costs. */
export async function machineFigures(): Promise<string> {
  const speed = machineSpeedMs();
  const wake = await wakeUpCostUs();
  return `machine speed ${fmt(speed)} ms (lower is faster); a JSON round trip ${fmt(wake.warm, 1)} µs warm, ${fmt(wake.afterSleep, 1)} µs after a 20 ms sleep`;
}

/** One `/proc/<pid>/status` field in kB, as MB; NaN when the process or the field is gone. */
function statusMb(pid: number | undefined, field: string): number {
  if (!pid) return NaN;
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** Peak resident set size (VmHWM) of a live process, in MB. */
export const peakRssMb = (pid: number | undefined): number => statusMb(pid, 'VmHWM');

/** Resident set size (VmRSS) of a live process now, in MB. */
export const rssMb = (pid: number | undefined): number => statusMb(pid, 'VmRSS');

/**
 * A live process's resident memory by kind, in MB: anonymous (its heaps: V8's and malloc's) and
 * file-backed (the Node binary's and libraries' pages, which processes on one node share).
 */
export const rssPartsMb = (pid: number | undefined) => ({
  anonymous: statusMb(pid, 'RssAnon'),
  fileBacked: statusMb(pid, 'RssFile'),
});

/** The local broker's pid (`scripts/kafka/kafka.sh start`), when it runs on this machine. */
export function localBrokerPid(): number | undefined {
  try {
    const pid = Number(readFileSync(join(repoRoot, '.kafka', 'broker.pid'), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && existsSync(`/proc/${pid}`) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a live process has used. */
export function cpuSeconds(pid: number | undefined): number {
  if (!pid) return NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The median of values in any order (the upper one of an even count, as `percentile` takes it). */
export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** The number after `--name` on the command line, or `fallback`. */
export function numberArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

/** The comma-separated rates after `--name` on the command line (each above 0), or `fallback`'s. */
export function numberListArg(name: string, fallback: string): number[] {
  const values = stringArg(name, fallback).split(',').map(Number);
  if (values.some((v) => !(v > 0))) throw new Error(`--${name} must list rates above 0, e.g. ${fallback}`);
  return values;
}

/** Whether `--name`, a switch without a value, is on the command line. */
export function flagArg(name: string): boolean {
  return process.argv.includes(`--${name}`);
}

/** The text after `--name` on the command line, or `fallback`. */
export function stringArg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

/** The other checkout `--against` names, as an absolute path: the build a comparison runs beside this one. */
export function againstArg(): string {
  const path = stringArg('against', '');
  if (!path) throw new Error('--against must name another checkout of Switchyard, built (npm run build)');
  return resolve(path);
}

/**
 * `--name 'NAME=value …'`: settings for a comparison's services, space-separated words, as an
 * environment; empty when absent.
 */
export function envArg(name: string): NodeJS.ProcessEnv {
  const words = stringArg(name, '').split(' ').filter(Boolean);
  const settings = words.map((word) => /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(word));
  if (settings.some((match) => !match))
    throw new Error(`--${name} takes 'NAME=value …': space-separated, no spaces in a value`);
  return Object.fromEntries(settings.map((match) => [match![1], match![2]]));
}

/** The word after `--name` on the command line, one of `choices` (the first when absent). */
export function choiceArg<T extends string>(name: string, choices: readonly [T, ...T[]]): T {
  const value = stringArg(name, choices[0]);
  if (!choices.includes(value as T)) throw new Error(`--${name} must be one of ${choices.join(', ')}`);
  return value as T;
}

/**
 * The wall clock in fractional milliseconds: event send and receive times, so a latency of a few
 * milliseconds is not rounded to whole ones at each end.
 */
export const preciseNowMs = () => performance.timeOrigin + performance.now();

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const builtGoTools = new Set<string>();

/**
 * Builds one of the Go benchmark tools in bench/go (so far the load generator) once per run
 * and returns its binary's path. Their modules come from the Go module proxy on first use; Go's build cache
 * makes a rebuild quick.
 */
export function goTool(name: 'loadgen'): string {
  const binary = join(repoRoot, '.cache', name);
  if (!builtGoTools.has(name)) {
    execFileSync('go', ['build', '-o', binary, `./${name}`], {
      cwd: join(repoRoot, 'bench', 'go'),
      stdio: 'inherit',
    });
    builtGoTools.add(name);
  }
  return binary;
}

/** Two-sided 95 % quantiles of Student's t for n − 1 degrees of freedom, n = 2…30; beyond, the normal's. */
const T95 = [
  12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.2, 2.18, 2.16, 2.14, 2.13, 2.12, 2.11, 2.1,
  2.09, 2.09, 2.08, 2.07, 2.07, 2.06, 2.06, 2.06, 2.05, 2.05, 2.05,
];

/**
 * Alternated rounds' figures (a cost in %, a ratio) as one line: their mean with its 95 % interval,
 * the median and the range. The interval says whether a small difference is more than the VM's noise.
 */
export function spreadLine(values: readonly number[], unit = '', digits = 1): string {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1);
  const halfWidth = (T95[values.length - 2] ?? 1.96) * Math.sqrt(variance / values.length);
  const sorted = [...values].sort((a, b) => a - b);
  const median =
    (sorted[Math.floor((sorted.length - 1) / 2)] + sorted[Math.ceil((sorted.length - 1) / 2)]) / 2;
  const n = (v: number) => `${fmt(v, digits)}${unit}`;
  return `mean ${n(mean)} ± ${fmt(halfWidth, digits)} (95 % interval), median ${n(median)}, rounds ${n(sorted[0])} to ${n(sorted[sorted.length - 1])}`;
}
