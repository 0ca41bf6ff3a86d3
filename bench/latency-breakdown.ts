/**
 * Where one event's time goes between the bench and the webhook receiver, read from the
 * OpenTelemetry spans the services already make (libs/telemetry), exported over OTLP/HTTP to a
 * collector in the bench (bench/trace-collector.ts). Every process runs on this machine and reads
 * one system clock, so their moments compare directly. The SDK stamps a span's start with
 * Date.now() (whole milliseconds) and its end as start plus a sub-millisecond duration; the
 * bench's own moments are truncated to whole milliseconds here to match. A hop's figure is good
 * to about ±1 ms.
 *
 * One event's chain, from the request the receiver got back to the call ingest took:
 *   receiver's `traceparent` → delivery's webhook request span (undici) → delivery's `process`
 *   span → router's `create` span → router's `process` span → ingest's `create` span → ingest's
 *   HTTP server span; and the `send` spans (produce requests) that carried each `create` span's
 *   records, which the `create` span is their parent or link of.
 */
import { SPAN_KIND } from '../test/support/otlp-receiver';
import { fmt, percentile } from './bench-kit';
import { Receipt } from './pipeline-kit';
import { TimedSpan, TraceCollector } from './trace-collector';

/**
 * The services' tracing settings for a breakdown run: every trace sampled (the default sampler,
 * parent-based and on); OTLP/JSON, which the collector decodes with the native JSON.parse;
 * exported every 500 ms, so spans reach the collector soon after the phase; a queue that never
 * drops spans at the rates measured; and room for a link to every record's creation in a produce
 * request (the SDK keeps 128 by default, and the router's batches hold more).
 */
export function tracingEnv(collector: TraceCollector): NodeJS.ProcessEnv {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '500',
    OTEL_BSP_MAX_QUEUE_SIZE: '65536',
    OTEL_SPAN_LINK_COUNT_LIMIT: '100000',
  };
}

/** The moments of one event's way, in milliseconds since the epoch. */
interface Timeline {
  sent: number;
  ingestReceived: number;
  ingestAcknowledged: number;
  routerFetched: number;
  routerAcknowledged: number;
  deliveryFetched: number;
  requestSent: number;
  receiverReceived: number;
  responseAtDelivery: number;
}

/** The hops printed, each the time between two moments of a timeline. */
const HOPS: Array<[label: string, from: keyof Timeline, to: keyof Timeline]> = [
  ['bench sent → ingest received the call', 'sent', 'ingestReceived'],
  ['→ acknowledged by Kafka (ingest produce)', 'ingestReceived', 'ingestAcknowledged'],
  ['→ router fetched (its process span starts)', 'ingestAcknowledged', 'routerFetched'],
  ['→ router produced (acknowledged by Kafka)', 'routerFetched', 'routerAcknowledged'],
  ['→ delivery fetched (its process span starts)', 'routerAcknowledged', 'deliveryFetched'],
  ['→ webhook request sent (undici span starts)', 'deliveryFetched', 'requestSent'],
  ['→ received at the receiver (whole request)', 'requestSent', 'receiverReceived'],
  ['request sent → response back at delivery', 'requestSent', 'responseAtDelivery'],
  ['end to end: bench sent → received', 'sent', 'receiverReceived'],
];

/** Spans by id, and when the last produce request carrying each creation context's records was acknowledged. */
class SpanIndex {
  private readonly byId = new Map<string, TimedSpan>();
  private readonly acknowledgedAt = new Map<string, number>();

  constructor(spans: readonly TimedSpan[]) {
    for (const span of spans) {
      this.byId.set(span.spanId, span);
      if (!span.name.startsWith('send ')) continue;
      // A send span's parent (all its records of one creation) or links (several) name the create spans.
      for (const creation of [span.parentSpanId, ...span.links.map((l) => l.spanId)]) {
        if (creation)
          this.acknowledgedAt.set(creation, Math.max(this.acknowledgedAt.get(creation) ?? 0, span.endMs));
      }
    }
  }

  /**
   * The parent of `span`, when it is the span of `service` that `name` starts (or that has `kind`).
   * The all-in-one process reports every service as `switchyard`; there the chain of parents
   * alone tells the hops apart.
   */
  parent(span: TimedSpan | undefined, service: string, name: string | number): TimedSpan | undefined {
    const parent = span && this.byId.get(span.parentSpanId);
    if (!parent || ![`switchyard-${service}`, 'switchyard'].includes(parent.service)) return undefined;
    return (typeof name === 'number' ? parent.kind === name : parent.name.startsWith(name))
      ? parent
      : undefined;
  }

  get(spanId: string | undefined): TimedSpan | undefined {
    return spanId === undefined ? undefined : this.byId.get(spanId);
  }

  acknowledged(creation: TimedSpan | undefined): number | undefined {
    return creation && this.acknowledgedAt.get(creation.spanId);
  }
}

/** One receipt's timeline, or the first span of its chain the collector does not hold (yet). */
function timeline(receipt: Receipt, spans: SpanIndex): Timeline | string {
  const request = spans.get(receipt.requestSpanId);
  if (!request) return "delivery's webhook request span";
  const deliveryProcess = spans.parent(request, 'delivery', 'process ');
  if (!deliveryProcess) return "delivery's process span";
  const routerCreate = spans.parent(deliveryProcess, 'router', 'create ');
  if (!routerCreate) return "router's create span";
  const routerProcess = spans.parent(routerCreate, 'router', 'process ');
  if (!routerProcess) return "router's process span";
  const ingestCreate = spans.parent(routerProcess, 'ingest', 'create ');
  if (!ingestCreate) return "ingest's create span";
  const ingestRequest = spans.parent(ingestCreate, 'ingest', SPAN_KIND.server);
  if (!ingestRequest) return "ingest's request span";
  const ingestAcknowledged = spans.acknowledged(ingestCreate);
  if (ingestAcknowledged === undefined) return "ingest's send span";
  const routerAcknowledged = spans.acknowledged(routerCreate);
  if (routerAcknowledged === undefined) return "router's send span";
  return {
    // Whole milliseconds, as the span start times are, so a hop between the two is not biased.
    sent: Math.floor(receipt.sentAtMs),
    ingestReceived: ingestRequest.startMs,
    ingestAcknowledged,
    routerFetched: routerProcess.startMs,
    routerAcknowledged,
    deliveryFetched: deliveryProcess.startMs,
    requestSent: request.startMs,
    receiverReceived: Math.floor(receipt.receivedAtMs),
    responseAtDelivery: request.endMs,
  };
}

export interface Breakdown {
  timelines: Timeline[];
  /** Receipts whose chain stayed incomplete (a span not exported in time, or not made), by the first span missing. */
  incomplete: Map<string, number>;
}

/**
 * The timelines of `receipts`, once the collector got all their spans or `timeoutMs` has passed.
 * Take the collector's spans just before sending the phase's events, so none of an earlier phase
 * is read.
 */
export async function collectBreakdown(
  collector: TraceCollector,
  receipts: readonly Receipt[],
  timeoutMs = 20_000,
): Promise<Breakdown> {
  const spans: TimedSpan[] = [];
  const deadline = Date.now() + timeoutMs;
  let built: Array<Timeline | string>;
  for (;;) {
    // One by one: a spread of tens of thousands of arguments overflows the stack.
    for (const span of await collector.take()) spans.push(span);
    const index = new SpanIndex(spans);
    built = receipts.map((r) => timeline(r, index));
    if (built.every((t) => typeof t !== 'string') || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const incomplete = new Map<string, number>();
  for (const missing of built.filter((t) => typeof t === 'string'))
    incomplete.set(missing, (incomplete.get(missing) ?? 0) + 1);
  return { timelines: built.filter((t) => typeof t !== 'string'), incomplete };
}

/**
 * Prints p50 and p99 of each hop, in milliseconds, and each hop's mean over every event beside its
 * mean over the slowest 1 % end to end: where the tail's extra time is spent, which the hops'
 * own p99s do not tell when different events are slow in different hops.
 */
export function printBreakdown({ timelines, incomplete }: Breakdown): void {
  const width = Math.max(...HOPS.map(([label]) => label.length));
  const hop = (t: Timeline, from: keyof Timeline, to: keyof Timeline) => t[to] - t[from];
  const endToEnd = (t: Timeline) => hop(t, 'sent', 'receiverReceived');
  const slowest = [...timelines]
    .sort((a, b) => endToEnd(b) - endToEnd(a))
    .slice(0, Math.max(1, Math.round(timelines.length / 100)));
  const mean = (of: Timeline[], from: keyof Timeline, to: keyof Timeline) =>
    of.reduce((sum, t) => sum + hop(t, from, to), 0) / of.length;
  console.log(
    `  ${'hop'.padEnd(width)}  ${'p50 ms'.padStart(7)}  ${'p99 ms'.padStart(7)}  ${'mean ms'.padStart(7)}  mean of the slowest 1 % (${fmt(slowest.length)} events) end to end`,
  );
  for (const [label, from, to] of HOPS) {
    const times = timelines.map((t) => hop(t, from, to)).sort((a, b) => a - b);
    console.log(
      `  ${label.padEnd(width)}  ${fmt(percentile(times, 50), 1).padStart(7)}  ${fmt(percentile(times, 99), 1).padStart(7)}  ${fmt(mean(timelines, from, to), 1).padStart(7)}  ${fmt(mean(slowest, from, to), 1).padStart(7)}`,
    );
  }
  const without = [...incomplete].map(([missing, count]) => `${fmt(count)} without ${missing}`);
  console.log(
    `  (${[`${fmt(timelines.length)} events with a complete chain of spans`, ...without].join(', ')}; moments are whole milliseconds; the hops' percentiles do not add up to the end-to-end ones)`,
  );
}
