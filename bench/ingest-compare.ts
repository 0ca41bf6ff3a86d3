/**
 * This checkout's ingest against another checkout's, so a change can be shown to cost nothing; or
 * this checkout's ingest with other settings against itself with its runtime settings, so a setting
 * can be measured at ingest's own ceiling.
 * Both run side by side on the one broker, each in its own topic namespace; the bench sends them
 * turns of the same `/v1/batch` (or `/v1/track`) requests (32 in flight), in the order A-B, B-A, … so a VM that
 * slows down or speeds up weighs on both alike. It reports, per round and as a mean with its 95 %
 * interval, this checkout's events/s and ingest CPU per request against the other's. CPU per
 * request is the steadier of the two: throughput also moves with what else the VM runs.
 *
 *   npm run bench:ingest-compare -- --against ../before [--rounds 10] [--endpoint batch|track]
 *     [--requests 1500 for batch, 30000 for track] [--users 5000: 1 puts every call in one partition]
 *   npm run bench:ingest-compare -- [--flags '<node flags>'] [--env 'NAME=value …'] [--rounds 10] …
 *
 * The other checkout must be built (`npm run build` there). Both run with this checkout's
 * runtime flags, so the comparison is of the code alone. `--flags` (ingest's Node flags instead of
 * INGEST_NODE_FLAGS) and `--env` (e.g. MALLOC_* settings) apply to this checkout's side only; with
 * either and no `--against`, the other side is this checkout with its runtime settings.
 */
import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { Pool } from 'undici';
import { localKafkaBrokers } from '@switchyard/config';
import { ServiceProcess, freePort } from '../test/support/service-process';
import {
  againstArg,
  choiceArg,
  cpuSeconds,
  envArg,
  fmt,
  machineSpeedMs,
  numberArg,
  repoRoot,
  spreadLine,
  startService,
  stringArg,
} from './bench-kit';
import { benchTrackCall, DEMO_SOURCE_AUTH } from './ingest-calls';

const hereFlags = stringArg('flags', '') || undefined;
const hereEnv = envArg('env');
/** What this checkout's side runs with beside the other's, as given on the command line. */
const hereSettings = [hereFlags, stringArg('env', '')].filter(Boolean).join(' ');
const comparesSettings = hereSettings !== '';
const against = comparesSettings && !process.argv.includes('--against') ? repoRoot : againstArg();
const rounds = numberArg('rounds', 10);
const users = numberArg('users', 5000);
const endpoint = choiceArg('endpoint', ['batch', 'track'] as const);
/** A few seconds of work per turn either way: a batch carries 100 calls. */
const requests = numberArg('requests', endpoint === 'batch' ? 1500 : 30_000);
const IN_FLIGHT = 32;
const EVENTS_PER_BATCH = 100;

/** 64 distinct bodies; ingest assigns messageIds, so repeating a body still writes distinct calls. */
const bodies = Array.from({ length: 64 }, (_, b) =>
  Buffer.from(
    JSON.stringify(
      endpoint === 'batch'
        ? {
            batch: Array.from({ length: EVENTS_PER_BATCH }, (_, k) =>
              benchTrackCall(b * EVENTS_PER_BATCH + k, users),
            ),
          }
        : benchTrackCall(b, users),
    ),
  ),
);
const eventsPerRequest = endpoint === 'batch' ? EVENTS_PER_BATCH : 1;

interface Side {
  service: ServiceProcess;
  pool: Pool;
}

async function startSide(
  checkout: string,
  { nodeFlags, settings }: { nodeFlags?: string; settings?: NodeJS.ProcessEnv } = {},
): Promise<Side> {
  const env = {
    ...settings,
    WORKSPACE_CONFIG: `${checkout}/config/workspace.example.yaml`,
    TOPIC_NAMESPACE: `compare-${randomUUID().slice(0, 8)}`,
    KAFKA_BROKERS: localKafkaBrokers(),
  };
  const service = await startService('ingest', env, await freePort(), { checkout, nodeFlags });
  return { service, pool: new Pool(service.url, { connections: IN_FLIGHT, pipelining: 1 }) };
}

/** `count` requests, IN_FLIGHT at a time: events/s and ingest CPU-ms per request. */
async function turn({ service, pool }: Side, count: number) {
  let next = 0;
  let failures = 0;
  const cpu0 = cpuSeconds(service.child.pid);
  const started = performance.now();
  const sender = async () => {
    while (next < count) {
      const res = await pool.request({
        path: `/v1/${endpoint}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: DEMO_SOURCE_AUTH },
        body: bodies[next++ % bodies.length],
      });
      await res.body.dump();
      if (res.statusCode !== 200) failures += 1;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
  if (failures > 0) throw new Error(`${failures} of ${count} requests to ${service.url} failed`);
  const elapsedS = (performance.now() - started) / 1000;
  return {
    eventsPerS: (count * eventsPerRequest) / elapsedS,
    cpuMsPerRequest: ((cpuSeconds(service.child.pid) - cpu0) * 1000) / count,
  };
}

async function main() {
  const sides = {
    here: await startSide(repoRoot, { nodeFlags: hereFlags, settings: hereEnv }),
    there: await startSide(against),
  };
  try {
    // One turn each warms the JIT, the connections and the topics; not counted.
    await turn(sides.there, requests / 3);
    await turn(sides.here, requests / 3);
    const throughputRatios: number[] = [];
    const cpuRatios: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 ? (['there', 'here'] as const) : (['here', 'there'] as const);
      const result = {} as Record<'here' | 'there', Awaited<ReturnType<typeof turn>>>;
      for (const side of order) result[side] = await turn(sides[side], requests);
      const { here, there } = result;
      throughputRatios.push((here.eventsPerS / there.eventsPerS - 1) * 100);
      cpuRatios.push((here.cpuMsPerRequest / there.cpuMsPerRequest - 1) * 100);
      console.log(
        `round ${round}: against ${fmt(there.eventsPerS)} events/s, ${fmt(there.cpuMsPerRequest, 3)} CPU-ms per request; here ${fmt(here.eventsPerS)} events/s, ${fmt(here.cpuMsPerRequest, 3)} CPU-ms per request`,
      );
    }
    console.log(
      `machine: ${cpus().length} cores, node ${process.version}; machine speed ${fmt(machineSpeedMs())} ms; /v1/${endpoint}, calls of ${users} user(s), ${IN_FLIGHT} in flight, ${rounds} rounds of ${requests} requests; against ${against}${comparesSettings ? `; here ${hereSettings}` : ''}`,
    );
    console.log(`throughput here against there: ${spreadLine(throughputRatios, ' %')}`);
    console.log(
      `ingest CPU per request here against there: ${spreadLine(cpuRatios, ' %')} (positive: dearer here)`,
    );
  } finally {
    await Promise.all(Object.values(sides).map(({ pool }) => pool.close()));
    await Promise.all(Object.values(sides).map(({ service }) => service.stop()));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
