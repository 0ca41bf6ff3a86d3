/**
 * The whole pipeline for benchmarks: a local webhook receiver, a workspace pointing at it, and
 * ingest, router and delivery as compiled processes with the production flags. Shared by
 * bench/end-to-end.ts and bench/soak.ts.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { freePort, ServiceProcess } from '../test/support/service-process';
import {
  choiceArg,
  fillerText,
  flagArg,
  preciseNowMs,
  ProcessFlags,
  startAllInOne,
  startService,
} from './bench-kit';
import { benchDestination, DestinationVariant } from './destination-variants';
import { localKafkaBrokers } from '@switchyard/config';

const writeKey = 'bench-write-key-0001';
const auth = `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}`;

export interface Receipt {
  /** When the bench made the event (its `sentAtMs` property), in milliseconds since the epoch (fractional). */
  sentAtMs: number;
  /** From the moment the bench made the event to its arrival at the receiver, in milliseconds (fractional). */
  latencyMs: number;
  /** When the receiver had the whole request, in milliseconds since the epoch (fractional). */
  receivedAtMs: number;
  /** The span id the request's `traceparent` names (delivery's request span), when tracing is on. */
  requestSpanId?: string;
}

/** `--mode`: the pipeline's services one process each (`split`, the default) or in one (`all-in-one`). */
export function modeArg(): 'split' | 'all-in-one' {
  return choiceArg('mode', ['split', 'all-in-one'] as const);
}

/** `--with-console`: the one process runs the console too, as `npm start` does (all-in-one only). */
export function withConsoleArg(mode: 'split' | 'all-in-one'): boolean {
  const on = flagArg('with-console');
  if (on && mode !== 'all-in-one') throw new Error('--with-console needs --mode all-in-one');
  return on;
}

export interface PipelineOptions {
  partitions: number;
  deliveryReplicas: number;
  /** The webhook destination's signing and filters; `segment` (the default) is what earlier figures used. */
  destination?: DestinationVariant;
  /** ingest, router and delivery in one all-in-one process (named `all-in-one`) instead of one each. */
  allInOne?: boolean;
  /** The console in the all-in-one process too, as `npm start` runs it (all-in-one only). */
  withConsole?: boolean;
  /** Settings for every service of this pipeline, beside the bench's own (e.g. DELIVERY_ATTEMPTS_TOPIC). */
  env?: NodeJS.ProcessEnv;
  /** Run another built checkout's services instead of this one's (comparing two commits). */
  checkout?: string;
  /** Node flags of each process instead of its runtime setting (comparing two settings). */
  nodeFlags?: ProcessFlags;
}

/** What an open loop drives: a system that takes events and the receiver its webhooks reach. */
export interface LoadTarget {
  /** Every webhook the receiver got, in order. */
  receipts: Receipt[];
  /** Hands the system these events; rejects unless it accepted them. */
  send(batch: object[]): Promise<void>;
}

export interface BenchPipeline extends LoadTarget {
  /** The services by name: ingest, router, delivery (delivery1, delivery2… with replicas), or all-in-one. */
  procs: Record<string, ServiceProcess>;
  /** Posts one `/v1/batch`; rejects unless ingest answers 200. */
  send(batch: object[]): Promise<void>;
  close(): Promise<void>;
}

/** An event of about `bytes` bytes whose properties carry the send time (read back by the receiver). */
export function benchEvent(i: number, bytes: number) {
  return {
    type: 'track',
    userId: `user-${i % 10_000}`,
    event: 'Order Completed',
    properties: { sentAtMs: preciseNowMs(), orderId: `o-${i}`, pad: fillerText(Math.max(0, bytes - 200), i) },
  };
}

export async function startBenchPipeline(options: PipelineOptions): Promise<BenchPipeline> {
  const receiver = await startReceiver();
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
  const workspace = join(dir, 'workspace.json');
  writeFileSync(
    workspace,
    JSON.stringify({
      sources: [{ id: 'bench', name: 'Bench', writeKey }],
      destinations: [benchDestination(options.destination ?? 'segment', receiver.url)],
    }),
  );
  const env = {
    ...options.env,
    WORKSPACE_CONFIG: workspace,
    TOPIC_NAMESPACE: `bench-${randomUUID().slice(0, 8)}`,
    TOPIC_PARTITIONS: String(options.partitions),
    KAFKA_BROKERS: localKafkaBrokers(),
  };
  // Free ports, so benchmarks run side by side (or beside npm start) never reach each other's services.
  const procs: Record<string, ServiceProcess> = options.allInOne
    ? {
        'all-in-one': await startAllInOne(
          ['ingest', 'router', 'delivery', ...(options.withConsole ? (['console'] as const) : [])],
          env,
          {
            checkout: options.checkout,
            nodeFlags: options.nodeFlags?.['all-in-one'],
          },
        ),
      }
    : await startSplitServices(env, options.deliveryReplicas, options);
  const ingest = procs.ingest ?? procs['all-in-one'];
  const pool = new Pool(ingest.url, { connections: 16 });
  return {
    procs,
    receipts: receiver.receipts,
    async send(batch) {
      const res = await pool.request({
        path: '/v1/batch',
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: auth },
        body: JSON.stringify({ batch }),
      });
      await res.body.dump();
      if (res.statusCode !== 200) throw new Error(`ingest answered ${res.statusCode}`);
    },
    async close() {
      await pool.close();
      for (const p of Object.values(procs)) await p.stop();
      receiver.close();
    },
  };
}

async function startSplitServices(
  env: NodeJS.ProcessEnv,
  deliveryReplicas: number,
  { checkout, nodeFlags }: Pick<PipelineOptions, 'checkout' | 'nodeFlags'>,
): Promise<Record<string, ServiceProcess>> {
  const start = async (name: 'ingest' | 'router' | 'delivery') =>
    startService(name, env, await freePort(), { checkout, nodeFlags: nodeFlags?.[name] });
  const ingest = await start('ingest');
  const router = await start('router');
  const deliveries = await Promise.all(Array.from({ length: deliveryReplicas }, () => start('delivery')));
  return {
    ingest,
    router,
    ...Object.fromEntries(
      deliveries.map((d, i) => [deliveryReplicas === 1 ? 'delivery' : `delivery${i + 1}`, d]),
    ),
  };
}

/** A webhook receiver on 127.0.0.1 that notes each request's arrival and the send time its body carries. */
export async function startReceiver() {
  const receipts: Receipt[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const receivedAtMs = preciseNowMs();
      const traceparent = req.headers.traceparent;
      const sentAt = sentAtMs(Buffer.concat(chunks).toString('latin1'));
      receipts.push({
        sentAtMs: sentAt,
        latencyMs: receivedAtMs - sentAt,
        receivedAtMs,
        // version-traceId-spanId-flags: the span id is the parent of whatever the receiver would do.
        requestSpanId: typeof traceparent === 'string' ? traceparent.slice(36, 52) : undefined,
      });
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    receipts,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => server.close(),
  };
}

/**
 * The send time the bench put in the event. Found by its key rather than by parsing the body: the
 * receiver shares the two cores with the pipeline, and JSON.parse of every body was most of its CPU.
 */
function sentAtMs(body: string): number {
  const at = body.indexOf(SENT_AT_KEY);
  return at < 0 ? Number.NaN : parseFloat(body.slice(at + SENT_AT_KEY.length, at + SENT_AT_KEY.length + 24));
}
const SENT_AT_KEY = '"sentAtMs":';

/** What one throughput phase delivered: the events sent (all received) and the seconds it took. */
export interface ThroughputRun {
  events: number;
  elapsed: number;
}

/**
 * Sends as fast as delivery keeps up for `seconds` (at most ~20k events ahead of the receiver, so
 * the figure is what delivery sustains, not what the topics buffer), then waits until every event
 * sent has arrived. Events are numbered on from those the pipeline already delivered, so runs on
 * one pipeline never repeat one.
 */
export async function measureThroughput(
  pipeline: BenchPipeline,
  seconds: number,
  eventBytes: number,
): Promise<ThroughputRun> {
  const { receipts, send } = pipeline;
  const received0 = receipts.length;
  let i = 0;
  const t0 = Date.now();
  const until = t0 + seconds * 1000;
  // Ingest takes 500 KB per request: big events go fewer to a batch.
  const eventsPerRequest = Math.max(1, Math.min(100, Math.floor(400_000 / eventBytes)));
  const workers = Array.from({ length: 8 }, async () => {
    while (Date.now() < until) {
      if (i - (receipts.length - received0) > 20_000) {
        await new Promise((r) => setTimeout(r, 5));
        continue;
      }
      await send(Array.from({ length: eventsPerRequest }, () => benchEvent(received0 + i++, eventBytes)));
    }
  });
  await Promise.all(workers);
  await waitUntil(() => receipts.length - received0 >= i, 120_000);
  return { events: receipts.length - received0, elapsed: (Date.now() - t0) / 1000 };
}

/** What one open-loop phase sent, and the receipts of exactly those events. */
export interface OpenLoopRun {
  sent: number;
  receipts: Receipt[];
}

/** The shortest gap between two sends of an open loop: finer timers are not kept on a busy machine. */
const OPEN_LOOP_TICK_MS = 10;

/**
 * Sends `rate` events/s for `seconds` whatever the pipeline's latency (an open loop, as real
 * sources send), then waits until all of them arrived. Each send is one `/v1/batch` of the events
 * due since the last: one event every 20 ms at 50/s, five every 10 ms at 500/s, ten every 10 ms at
 * 1,000/s.
 */
export async function openLoop(
  pipeline: LoadTarget,
  rate: number,
  seconds: number,
  eventBytes: number,
): Promise<OpenLoopRun> {
  const { receipts, send } = pipeline;
  const before = receipts.length;
  const tickMs = Math.max(OPEN_LOOP_TICK_MS, 1000 / rate);
  const ticks = Math.floor((seconds * 1000) / tickMs);
  let sent = 0;
  const start = Date.now();
  const pending: Promise<void>[] = [];
  for (let t = 1; t <= ticks; t++) {
    const wait = start + (t - 1) * tickMs - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const due = Math.round((rate * t * tickMs) / 1000) - sent;
    if (due === 0) continue;
    pending.push(send(Array.from({ length: due }, (_, k) => benchEvent(before + sent + k, eventBytes))));
    sent += due;
  }
  await Promise.all(pending);
  await waitUntil(() => receipts.length - before >= sent, 60_000);
  return { sent, receipts: receipts.slice(before) };
}

export async function waitUntil(check: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}
