/**
 * Switchyard beside a peer webhook server on the same machine: the same events, at the same
 * open-loop rates, each system delivering to its own receiver of the same code, in alternating
 * turns. The peer (`--peer`) is already running with its Postgres and Redis:
 *  - `svix`: Svix's open-source server; the bench creates an application and an endpoint in it,
 *    then sends each event as one message (bench/peers/svix-run.sh starts it);
 *  - `convoy`: Convoy's server and agent; the bench creates an endpoint and a subscription to
 *    every event type in its project, then sends each event as one endpoint event
 *    (bench/peers/convoy-run.sh starts it).
 * Switchyard runs as `bench:e2e` runs it: split services, or with `--mode all-in-one` the three in
 * one process (`--with-console`: and the console, as `npm start` runs it), the broker on this
 * machine.
 *
 *   SVIX_URL=http://127.0.0.1:8071 SVIX_TOKEN=<API token> \
 *     npm run bench:peers -- [--peer svix] [--rates 50,500,1000] [--latency-seconds 15]
 *     [--rounds 3] [--warmup-seconds 2] [--partitions 6] [--bytes 500] [--mode split|all-in-one]
 *     [--with-console]
 *   CONVOY_URL=http://127.0.0.1:5005 CONVOY_PROJECT=<project id> CONVOY_TOKEN=<its API key> \
 *     npm run bench:peers -- --peer convoy …
 *
 * Each side's CPU per event counts its whole system: Switchyard's services and the local broker;
 * every process of the peer's names (svix-server or convoy and convoy-bin, postgres,
 * redis-server; PEER_PROCESSES lists other names). So only one peer runs at a time. The share of
 * each side's store (the broker; Postgres and Redis) is printed beside it: a team may already run
 * one, and a broker young enough to be still compiling its hot paths shows there.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { Pool } from 'undici';
import {
  choiceArg,
  cpuSeconds,
  fmt,
  localBrokerPid,
  machineFigures,
  numberArg,
  numberListArg,
  percentile,
  spreadLine,
} from './bench-kit';
import {
  LoadTarget,
  modeArg,
  openLoop,
  Receipt,
  startBenchPipeline,
  startReceiver,
  withConsoleArg,
} from './pipeline-kit';

const rates = numberListArg('rates', '50,500,1000');
const latencySeconds = numberArg('latency-seconds', 15);
const rounds = numberArg('rounds', 3);
const warmUpSeconds = numberArg('warmup-seconds', 2);
const partitions = numberArg('partitions', 6);
const eventBytes = numberArg('bytes', 500);
const mode = modeArg();
const withConsole = withConsoleArg(mode);
const peer = choiceArg('peer', ['svix', 'convoy'] as const);

interface Side extends LoadTarget {
  name: string;
  /** What the side keeps its events in, as the report names it. */
  storeName: string;
  /** The processes whose CPU counts for this side, as they are now: its own, and its store's. */
  pids(): { own: number[]; store: number[] };
  close(): Promise<void>;
}

interface Turn {
  p50: number;
  p99: number;
  /** CPU-seconds of the side's processes per 1,000 events delivered. */
  cpuPerThousand: number;
  /** The part of cpuPerThousand spent by the side's store. */
  storeCpuPerThousand: number;
}

async function startSwitchyard(): Promise<Side> {
  const pipeline = await startBenchPipeline({
    partitions,
    deliveryReplicas: 1,
    allInOne: mode === 'all-in-one',
    withConsole,
  });
  const broker = localBrokerPid();
  return {
    name: mode === 'split' ? 'Switchyard' : `Switchyard (all-in-one${withConsole ? ', console' : ''})`,
    storeName: 'the broker',
    receipts: pipeline.receipts,
    send: pipeline.send,
    pids: () => ({
      own: Object.values(pipeline.procs).map((p) => p.child.pid!),
      store: broker ? [broker] : [],
    }),
    close: () => pipeline.close(),
  };
}

/** A peer's HTTP API: POSTs JSON with its bearer token and answers the parsed reply. */
function peerApi(name: string, url: string, token: string) {
  const pool = new Pool(url, { connections: 16 });
  return {
    async post<T>(path: string, body: object): Promise<T> {
      const res = await pool.request({
        path,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await res.body.text();
      if (res.statusCode >= 300)
        throw new Error(`${name} answered ${res.statusCode} to POST ${path}: ${text}`);
      return JSON.parse(text) as T;
    },
    close: () => pool.close(),
  };
}

/** A peer's side of the bench: each event of a tick is its own call, all sent at once (neither peer has a batch call). */
function peerSide(
  name: string,
  api: ReturnType<typeof peerApi>,
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  sendOne: (payload: object) => Promise<unknown>,
  processNames: string[],
): Side {
  return {
    name,
    storeName: 'Postgres and Redis',
    receipts: receiver.receipts,
    async send(batch) {
      await Promise.all(batch.map(sendOne));
    },
    // Looked up at each turn: Postgres starts a backend for each connection the peer's pool opens.
    pids: () => ({
      own: processesNamed(processNames.filter((name) => !STORE_PROCESSES.includes(name))),
      store: processesNamed(processNames.filter((name) => STORE_PROCESSES.includes(name))),
    }),
    async close() {
      await api.close();
      receiver.close();
    },
  };
}

/** Svix: one application and one endpoint pointing at a fresh receiver, then one message per event. */
async function startSvix(processNames: string[]): Promise<Side> {
  const api = peerApi('Svix', requiredEnv('SVIX_URL'), requiredEnv('SVIX_TOKEN'));
  const receiver = await startReceiver();
  const app = await api.post<{ id: string }>('/api/v1/app/', { name: `bench-${randomUUID().slice(0, 8)}` });
  await api.post(`/api/v1/app/${app.id}/endpoint/`, { url: receiver.url, version: 1 });
  return peerSide(
    'Svix',
    api,
    receiver,
    (payload) => api.post(`/api/v1/app/${app.id}/msg/`, { eventType: 'track', payload }),
    processNames,
  );
}

/**
 * Convoy: an endpoint pointing at a fresh receiver and a subscription of it to every event type,
 * then one endpoint event per event. Its agent reads new endpoints from the database every few
 * seconds, so the side is ready once a first event has arrived.
 */
async function startConvoy(processNames: string[]): Promise<Side> {
  const api = peerApi('Convoy', requiredEnv('CONVOY_URL'), requiredEnv('CONVOY_TOKEN'));
  const project = `/api/v1/projects/${requiredEnv('CONVOY_PROJECT')}`;
  const receiver = await startReceiver();
  const name = `bench-${randomUUID().slice(0, 8)}`;
  const endpoint = await api.post<{ data: { uid: string } }>(`${project}/endpoints`, {
    name,
    url: receiver.url,
    secret: randomUUID(),
  });
  await api.post(`${project}/subscriptions`, {
    name,
    endpoint_id: endpoint.data.uid,
    filter_config: { event_types: ['*'] },
  });
  const side = peerSide(
    'Convoy',
    api,
    receiver,
    (payload) =>
      api.post(`${project}/events`, { endpoint_id: endpoint.data.uid, event_type: 'track', data: payload }),
    processNames,
  );
  await openLoop(side, 1, 1, eventBytes);
  if (receiver.receipts.length === 0)
    throw new Error('Convoy delivered nothing to the new endpoint within a minute');
  return side;
}

const STORE_PROCESSES = ['postgres', 'redis-server'];

const PEERS = {
  svix: { start: startSvix, processes: 'svix-server,postgres,redis-server' },
  convoy: { start: startConvoy, processes: 'convoy,convoy-bin,postgres,redis-server' },
};

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`${name} must be set for --peer ${peer} (bench/README.md says how to start the peer)`);
  return value;
}

/** Processes whose command name is one of `names`. */
function processesNamed(names: string[]): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return names.includes(readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/** CPU-seconds of each process; NaN for one that has ended. */
function cpuOf(pids: number[]): number[] {
  return pids.map((pid) => {
    try {
      return cpuSeconds(pid);
    } catch {
      return Number.NaN;
    }
  });
}

/** CPU-seconds the processes spend from now until the returned function is called. */
function cpuMeter(pids: number[]): () => number {
  const before = cpuOf(pids);
  // A process that ended meanwhile is left out rather than counted negative.
  return () => cpuOf(pids).reduce((sum, after, i) => sum + (after - before[i] || 0), 0);
}

async function turn(side: Side, rate: number): Promise<Turn> {
  const { own, store } = side.pids();
  const ownCpu = cpuMeter(own);
  const storeCpu = cpuMeter(store);
  const { receipts } = await openLoop(side, rate, latencySeconds, eventBytes);
  const perThousand = (cpu: number) => (cpu / receipts.length) * 1000;
  const storeCpuPerThousand = perThousand(storeCpu());
  const latencies = receipts.map((r: Receipt) => r.latencyMs).sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuPerThousand: perThousand(ownCpu()) + storeCpuPerThousand,
    storeCpuPerThousand,
  };
}

const range = (values: number[], digits = 1) => {
  const sorted = [...values].sort((a, b) => a - b);
  const [low, high] = [fmt(sorted[0], digits), fmt(sorted.at(-1)!, digits)];
  return low === high ? low : `${low}–${high}`;
};

function report(rate: number, turns: Record<string, Turn[]>, [ours, peer]: Side[]) {
  console.log(`at ${fmt(rate)} events/s, ${rounds} rounds:`);
  for (const side of [ours, peer]) {
    const t = turns[side.name];
    console.log(
      `  ${side.name.padEnd(10)} p50 ${range(t.map((x) => x.p50))} ms, p99 ${range(t.map((x) => x.p99))} ms, CPU ${range(t.map((x) => x.cpuPerThousand))} s per 1,000 events (${range(t.map((x) => x.storeCpuPerThousand))} of it in ${side.storeName})`,
    );
  }
  if (rounds < 2) return;
  for (const [label, pick] of [
    ['p50', (t: Turn) => t.p50],
    ['p99', (t: Turn) => t.p99],
  ] as const) {
    const ratios = turns[ours.name].map((t, i) => pick(t) / pick(turns[peer.name][i]));
    console.log(`  ${ours.name} ÷ ${peer.name}, ${label}: ${spreadLine(ratios, '', 3)}`);
  }
}

async function main() {
  const peerProcesses = (process.env.PEER_PROCESSES ?? PEERS[peer].processes).split(',');
  console.log(
    `machine: ${cpus().length} cores, node ${process.version}; events ~${eventBytes} bytes; ${latencySeconds} s per turn; ${await machineFigures()}`,
  );
  // The peer first: a missing setting or an unreachable peer fails before Switchyard's services start.
  const theirs = await PEERS[peer].start(peerProcesses);
  const ours = await startSwitchyard().catch(async (error: unknown) => {
    await theirs.close();
    throw error;
  });
  const sides = [ours, theirs];
  try {
    for (const side of sides) await openLoop(side, 500, warmUpSeconds, eventBytes);
    const turns = new Map(
      rates.map((rate) => [rate, Object.fromEntries(sides.map((side) => [side.name, [] as Turn[]]))]),
    );
    for (let round = 0; round < rounds; round++) {
      // Alternating which side goes first, so a machine that slows down mid-round favours neither.
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const rate of rates) {
        for (const side of order) {
          const t = await turn(side, rate);
          turns.get(rate)![side.name].push(t);
          console.log(
            `round ${round + 1}, ${fmt(rate)} events/s, ${side.name}: p50 ${fmt(t.p50, 1)} ms, p99 ${fmt(t.p99, 1)} ms`,
          );
        }
      }
    }
    for (const rate of rates) report(rate, turns.get(rate)!, sides);
  } finally {
    for (const side of sides) await side.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
