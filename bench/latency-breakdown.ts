/**
 * Where one event's time goes between the bench and the webhook receiver, read from the
 * OpenTelemetry spans the services already make (libs/telemetry), exported over OTLP/HTTP to a
 * collector in the bench process. Every process runs on this machine, so their clocks agree (to
 * well under a millisecond: one system clock, each process reading it with sub-millisecond
 * resolution).
 *
 * One event's chain, from the request the receiver got back to the call ingest took:
 *   receiver's `traceparent` → delivery's webhook request span (undici) → delivery's `process`
 *   span → router's `create` span → router's `process` span → ingest's `create` span → ingest's
 *   HTTP server span; and the `send` spans (produce requests) that carried each `create` span's
 *   records, which the `create` span is their parent or link of.
 */
import { OtlpReceiver, ReceivedSpan, SPAN_KIND } from '../test/support/otlp-receiver';
import { fmt, percentile } from './bench-kit';
import { Receipt, waitUntil } from './pipeline-kit';

/**
 * The services' tracing settings for a breakdown run: every trace sampled (the default sampler,
 * parent-based and on), exported every 500 ms (spans reach the collector soon after the phase),
 * and a queue that never drops spans at the rates measured.
 */
export function tracingEnv(collector: OtlpReceiver): NodeJS.ProcessEnv {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    OTEL_BSP_SCHEDULE_DELAY: '500',
    OTEL_BSP_MAX_QUEUE_SIZE: '65536',
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
  private readonly byId = new Map<string, ReceivedSpan>();
  private readonly acknowledgedAt = new Map<string, number>();

  constructor(spans: readonly ReceivedSpan[]) {
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

  /** The parent of `span`, when it is the span of `service` that `name` starts (or that has `kind`). */
  parent(span: ReceivedSpan | undefined, service: string, name: string | number): ReceivedSpan | undefined {
    const parent = span && this.byId.get(span.parentSpanId);
    if (!parent || parent.service !== `switchyard-${service}`) return undefined;
    return (typeof name === 'number' ? parent.kind === name : parent.name.startsWith(name))
      ? parent
      : undefined;
  }

  get(spanId: string | undefined): ReceivedSpan | undefined {
    return spanId === undefined ? undefined : this.byId.get(spanId);
  }

  acknowledged(creation: ReceivedSpan | undefined): number | undefined {
    return creation && this.acknowledgedAt.get(creation.spanId);
  }
}

/** One receipt's timeline, or undefined while a span of its chain has not been exported. */
function timeline(receipt: Receipt, spans: SpanIndex): Timeline | undefined {
  const request = spans.get(receipt.requestSpanId);
  const deliveryProcess = spans.parent(request, 'delivery', 'process ');
  const routerCreate = spans.parent(deliveryProcess, 'router', 'create ');
  const routerProcess = spans.parent(routerCreate, 'router', 'process ');
  const ingestCreate = spans.parent(routerProcess, 'ingest', 'create ');
  const ingestRequest = spans.parent(ingestCreate, 'ingest', SPAN_KIND.server);
  const ingestAcknowledged = spans.acknowledged(ingestCreate);
  const routerAcknowledged = spans.acknowledged(routerCreate);
  if (!request || !deliveryProcess || !routerProcess || !ingestRequest) return undefined;
  if (ingestAcknowledged === undefined || routerAcknowledged === undefined) return undefined;
  return {
    sent: receipt.sentAtMs,
    ingestReceived: ingestRequest.startMs,
    ingestAcknowledged,
    routerFetched: routerProcess.startMs,
    routerAcknowledged,
    deliveryFetched: deliveryProcess.startMs,
    requestSent: request.startMs,
    receiverReceived: receipt.receivedAtMs,
    responseAtDelivery: request.endMs,
  };
}

export interface Breakdown {
  timelines: Timeline[];
  /** Receipts whose chain stayed incomplete (a span not exported in time, or not made). */
  incomplete: number;
}

/** The timelines of `receipts`, once the collector holds all their spans or `timeoutMs` has passed. */
export async function collectBreakdown(
  collector: OtlpReceiver,
  receipts: readonly Receipt[],
  timeoutMs = 20_000,
): Promise<Breakdown> {
  const build = () => {
    const spans = new SpanIndex(collector.spans);
    return receipts.map((r) => timeline(r, spans));
  };
  let built = build();
  await waitUntil(() => (built = build()).every(Boolean), timeoutMs);
  const timelines = built.filter((t): t is Timeline => t !== undefined);
  return { timelines, incomplete: receipts.length - timelines.length };
}

/** Prints p50 and p99 of each hop, in milliseconds. */
export function printBreakdown({ timelines, incomplete }: Breakdown): void {
  const width = Math.max(...HOPS.map(([label]) => label.length));
  console.log(`  ${'hop'.padEnd(width)}  ${'p50 ms'.padStart(7)}  ${'p99 ms'.padStart(7)}`);
  for (const [label, from, to] of HOPS) {
    const times = timelines.map((t) => t[to] - t[from]).sort((a, b) => a - b);
    console.log(
      `  ${label.padEnd(width)}  ${fmt(percentile(times, 50), 2).padStart(7)}  ${fmt(percentile(times, 99), 2).padStart(7)}`,
    );
  }
  console.log(
    `  (${fmt(timelines.length)} events with a complete chain of spans${incomplete ? `, ${fmt(incomplete)} without` : ''}; p50s and p99s of the hops do not add up to the end-to-end ones)`,
  );
}
