import {
  Attributes,
  Context,
  context,
  INVALID_SPAN_CONTEXT,
  Link,
  propagation,
  ROOT_CONTEXT,
  Span,
  SpanContext,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
} from '@opentelemetry/api';
import { MESSAGING, messagingAttributes, messagingSpanName } from './messaging-attributes';
import { isTracingOn } from './tracing-state';

export type { Span } from '@opentelemetry/api';

/** Handed to work when tracing is off: the per-record API calls cost delivery real CPU for nothing. */
const NO_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

// A proxy: it starts recording once the SDK registers, and costs nothing to reuse until then.
const switchyardTracer = trace.getTracer('switchyard');
const tracer = () => switchyardTracer;

/** Kafka headers as a consumer hands them over (Buffers, or arrays of them) or as we write them (strings). */
type KafkaHeaders = Record<string, unknown>;

/** The records of one topic in a produce request, as far as a send span reads them. */
export interface TracedTopicRecords {
  topic: string;
  messages: readonly { headers?: KafkaHeaders }[];
}

/** Where the broker wrote one partition's share of a produce request. */
export interface TracedWrite {
  topicName: string;
  partition: number;
  baseOffset?: string;
}

const getter = {
  keys: (carrier: KafkaHeaders) => Object.keys(carrier),
  get: (carrier: KafkaHeaders, key: string) => {
    const value = carrier[key];
    const first: unknown = Array.isArray(value) ? value[0] : value;
    return first === undefined || first === null ? undefined : String(first);
  },
};

/** A record as a consumer hands it to its work: where it was read from, and its headers. */
export interface ConsumedRecord {
  topic: string;
  partition: number;
  offset: string;
  headers?: KafkaHeaders;
}

/** A record about to be produced, in any of the services' record shapes. */
export interface CreatedRecord {
  topic: string;
  headers?: Record<string, string | Buffer>;
}

/** The trace context a record's headers carry (its creation context), if any. */
function creationContext(headers: KafkaHeaders | undefined): SpanContext | undefined {
  if (!headers || headers.traceparent === undefined) return undefined;
  const spanContext = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, headers, getter));
  return spanContext && trace.isSpanContextValid(spanContext) ? spanContext : undefined;
}

/** The distinct creation contexts of some records, each once. */
function distinctCreationContexts(records: readonly { headers?: KafkaHeaders | null }[]): SpanContext[] {
  const seen = new Map<string, SpanContext>();
  for (const record of records) {
    const traceparent = record.headers ? getter.get(record.headers, 'traceparent') : undefined;
    if (traceparent === undefined || seen.has(traceparent)) continue;
    const spanContext = creationContext(record.headers ?? undefined);
    if (spanContext) seen.set(traceparent, spanContext);
  }
  return [...seen.values()];
}

/** Whether the trace of a context is recorded: links to others point at spans no backend has. */
function isSampled(spanContext: SpanContext): boolean {
  return (spanContext.traceFlags & TraceFlags.SAMPLED) !== 0;
}

/** ERROR status with a low-cardinality `error.type`, as the conventions ask of a failed operation. */
export function markSpanFailed(span: Span, errorType: string, message: string): void {
  span.setAttribute('error.type', errorType);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

function failAndRethrow(span: Span, error: unknown): never {
  span.recordException(error as Error);
  markSpanFailed(span, (error as Error).name ?? 'Error', (error as Error).message);
  throw error;
}

/**
 * Gives records their creation context: one `create {topic}` span per topic (a child of the
 * active span, ended at once) whose W3C context goes into each record's headers, so the consumer
 * that processes a record continues this trace. A record that already carried a context of
 * another trace (a replayed dead letter) is linked from the new span. Returns the records.
 */
export function traceRecordCreation<R extends CreatedRecord>(records: R[]): R[] {
  if (!isTracingOn() || records.length === 0) return records;
  const active = context.active();
  const activeTraceId = trace.getSpanContext(active)?.traceId;
  for (const [topic, group] of byTopic(records)) {
    const links: Link[] = distinctCreationContexts(group)
      .filter((previous) => previous.traceId !== activeTraceId && isSampled(previous))
      .map((previous) => ({ context: previous }));
    const span = tracer().startSpan(
      messagingSpanName('create', topic),
      { kind: SpanKind.PRODUCER, attributes: messagingAttributes('create', topic, group.length), links },
      active,
    );
    const headers: Record<string, string> = {};
    propagation.inject(trace.setSpan(active, span), headers);
    span.end();
    // A fresh object per record (callers may share one headers object between records), without
    // the context a re-produced record carried: its tracestate belongs to that context alone.
    for (const record of group) {
      const { traceparent: _previous, tracestate: _previousState, ...kept } = record.headers ?? {};
      (record as CreatedRecord).headers = { ...kept, ...headers };
    }
  }
  return records;
}

function byTopic<R extends CreatedRecord>(records: R[]): Map<string, R[]> {
  const groups = new Map<string, R[]>();
  for (const record of records) {
    let group = groups.get(record.topic);
    if (!group) groups.set(record.topic, (group = []));
    group.push(record);
  }
  return groups;
}

/**
 * Runs one produce request inside a `send {topic}` span per topic it writes. A request carries
 * the records of many callers (ingest batches concurrent HTTP requests), so the span links to
 * every sampled creation context it carries rather than adopting one of them as its parent; only
 * when all its records share one context is that context its parent too. When none of those
 * traces is sampled there is no span. After the broker's answer it records the partition (when
 * all records of the topic went to one) and the offset (one record).
 */
export async function traceSend<W extends TracedWrite>(
  topicMessages: readonly TracedTopicRecords[],
  send: () => Promise<W[]>,
): Promise<W[]> {
  if (!isTracingOn()) return send();
  const spans = topicMessages.map(({ topic, messages }) => startSendSpan(topic, messages));
  try {
    const written = await send();
    topicMessages.forEach(({ topic, messages }, i) =>
      spans[i].setAttributes(writtenAt(topic, messages.length, written)),
    );
    return written;
  } catch (error) {
    for (const span of spans) {
      span.recordException(error as Error);
      markSpanFailed(span, (error as Error).name ?? 'Error', (error as Error).message);
    }
    throw error;
  } finally {
    for (const span of spans) span.end();
  }
}

function startSendSpan(topic: string, messages: TracedTopicRecords['messages']): Span {
  const creations = distinctCreationContexts(messages);
  const sampled = creations.filter(isSampled);
  // Every record's trace was left unsampled upstream: a root span of its own would record them anyway.
  if (creations.length > 0 && sampled.length === 0) return NO_SPAN;
  // Never the active context: that is whichever caller's send happened to start the batch.
  const parent = creations.length === 1 ? trace.setSpanContext(ROOT_CONTEXT, creations[0]) : ROOT_CONTEXT;
  // The conventions' kinds: a send is a CLIENT call when create spans made the records' contexts.
  const kind = creations.length > 0 ? SpanKind.CLIENT : SpanKind.PRODUCER;
  const links = sampled.map((creation) => ({ context: creation }));
  return tracer().startSpan(
    messagingSpanName('send', topic),
    { kind, attributes: messagingAttributes('send', topic, messages.length), links },
    parent,
  );
}

function writtenAt(topic: string, records: number, written: readonly TracedWrite[]): Attributes {
  const partitions = written.filter((w) => w.topicName === topic);
  if (partitions.length !== 1) return {};
  const attributes: Attributes = { [MESSAGING.partitionId]: String(partitions[0].partition) };
  if (records === 1 && partitions[0].baseOffset !== undefined)
    attributes[MESSAGING.kafkaOffset] = Number(partitions[0].baseOffset);
  return attributes;
}

function startProcessSpan(
  record: ConsumedRecord,
  consumerGroup: string,
): { span: Span; spanContext: Context } {
  const parent = propagation.extract(context.active(), record.headers ?? {}, getter);
  const span = tracer().startSpan(
    messagingSpanName('process', record.topic),
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        ...messagingAttributes('process', record.topic),
        [MESSAGING.consumerGroup]: consumerGroup,
        [MESSAGING.partitionId]: String(record.partition),
        [MESSAGING.kafkaOffset]: Number(record.offset),
      },
    },
    parent,
  );
  return { span, spanContext: trace.setSpan(parent, span) };
}

/**
 * Runs `work` inside a `process {topic}` span whose parent is the record's creation context, so
 * one event keeps one trace id from ingest to the webhook, and a sampling decision made upstream
 * holds downstream. The span ends when `work` settles; a throw marks it ERROR.
 */
export async function withProcessSpan<T>(
  record: ConsumedRecord,
  consumerGroup: string,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  if (!isTracingOn()) return work(NO_SPAN);
  const { span, spanContext } = startProcessSpan(record, consumerGroup);
  try {
    return await context.with(spanContext, () => work(span));
  } catch (error) {
    return failAndRethrow(span, error);
  } finally {
    span.end();
  }
}

/** The synchronous form of withProcessSpan, for handlers that transform a batch without awaiting. */
export function withProcessSpanSync<T>(
  record: ConsumedRecord,
  consumerGroup: string,
  work: (span: Span) => T,
): T {
  if (!isTracingOn()) return work(NO_SPAN);
  const { span, spanContext } = startProcessSpan(record, consumerGroup);
  try {
    return context.with(spanContext, () => work(span));
  } catch (error) {
    return failAndRethrow(span, error);
  } finally {
    span.end();
  }
}

/** Adds attributes to the span of the work in progress (no-op when tracing is off). */
export function annotateActiveSpan(attributes: Attributes): void {
  if (!isTracingOn()) return;
  trace.getActiveSpan()?.setAttributes(attributes);
}
