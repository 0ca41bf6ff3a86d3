import { Attributes, context, INVALID_SPAN_CONTEXT, propagation, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { isTracingOn } from './tracing-state';

/** Handed to work when tracing is off: the per-record API calls cost delivery 8 % of its CPU for nothing. */
const NO_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

// A proxy: it starts recording once the SDK registers, and costs nothing to reuse until then.
const switchyardTracer = trace.getTracer('switchyard');
const tracer = () => switchyardTracer;

/** Kafka headers as kafkajs hands them over (Buffers, or arrays of them), readable by the W3C propagator. */
type KafkaHeaders = Record<string, unknown>;

const getter = {
  keys: (carrier: KafkaHeaders) => Object.keys(carrier),
  get: (carrier: KafkaHeaders, key: string) => {
    const value = carrier[key];
    const first: unknown = Array.isArray(value) ? value[0] : value;
    return first === undefined || first === null ? undefined : String(first);
  },
};

/** W3C `traceparent`/`tracestate` of the active context (or of `span`), to put in a produced record's headers. */
export function traceHeaders(span?: Span): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!isTracingOn()) return headers;
  propagation.inject(span ? trace.setSpan(context.active(), span) : context.active(), headers);
  return headers;
}

function startRecordSpan(name: string, headers: KafkaHeaders | undefined, attributes: Attributes) {
  const parent = propagation.extract(context.active(), headers ?? {}, getter);
  const span = tracer().startSpan(name, { kind: SpanKind.CONSUMER, attributes }, parent);
  return { span, spanContext: trace.setSpan(parent, span) };
}

function fail(span: Span, error: unknown): never {
  span.recordException(error as Error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
  throw error;
}

/**
 * Runs `work` inside a consumer span whose parent is the trace carried by the record's headers,
 * so one event keeps one trace id from ingest to the webhook. The span ends when `work` settles.
 */
export async function withRecordSpan<T>(name: string, headers: KafkaHeaders | undefined, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  if (!isTracingOn()) return work(NO_SPAN);
  const { span, spanContext } = startRecordSpan(name, headers, attributes);
  try {
    return await context.with(spanContext, () => work(span));
  } catch (error) {
    return fail(span, error);
  } finally {
    span.end();
  }
}

/** The synchronous form of withRecordSpan, for handlers that transform a batch without awaiting. */
export function withRecordSpanSync<T>(name: string, headers: KafkaHeaders | undefined, attributes: Attributes, work: (span: Span) => T): T {
  if (!isTracingOn()) return work(NO_SPAN);
  const { span, spanContext } = startRecordSpan(name, headers, attributes);
  try {
    return context.with(spanContext, () => work(span));
  } catch (error) {
    return fail(span, error);
  } finally {
    span.end();
  }
}

/** Runs `work` inside a producer span (child of the active context). */
export async function withProduceSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  if (!isTracingOn()) return work(NO_SPAN);
  const span = tracer().startSpan(name, { kind: SpanKind.PRODUCER, attributes });
  try {
    return await context.with(trace.setSpan(context.active(), span), () => work(span));
  } finally {
    span.end();
  }
}

/** Adds attributes to the span of the work in progress (no-op when tracing is off). */
export function annotateActiveSpan(attributes: Attributes): void {
  if (!isTracingOn()) return;
  trace.getActiveSpan()?.setAttributes(attributes);
}
