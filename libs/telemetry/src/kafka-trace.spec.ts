import { randomBytes } from 'node:crypto';
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { node, tracing } from '@opentelemetry/sdk-node';
import {
  BatchingProducer,
  DEFAULT_BATCHING,
  KafkaProducer,
  OutgoingRecord,
  WrittenPartition,
} from '@switchyard/kafka';
import { traceRecordCreation, withProcessSpan } from './kafka-trace';
import { markTracingOn } from './tracing-state';

const exporter = new tracing.InMemorySpanExporter();
new node.NodeTracerProvider({ spanProcessors: [new tracing.SimpleSpanProcessor(exporter)] }).register();
markTracingOn();

const tracer = trace.getTracer('test');
const spans = () => exporter.getFinishedSpans();
const named = (name: string) => spans().filter((s) => s.name === name);

/** A producer that acknowledges every request on one partition, or fails them all. */
function fakeProducer(failWith?: Error) {
  const requests: unknown[] = [];
  const producer = {
    requests,
    sendBatch: async ({
      topicMessages,
    }: {
      topicMessages: { topic: string; messages: unknown[] }[];
    }): Promise<WrittenPartition[]> => {
      requests.push(topicMessages);
      if (failWith) throw failWith;
      return topicMessages.map(({ topic }) => ({
        topicName: topic,
        partition: 3,
        errorCode: 0,
        baseOffset: '41',
      }));
    },
  };
  return producer;
}

/** Records created inside a span of their own trace, as one HTTP request of ingest would; `sampled: false` as under a caller that decided not to sample. */
function createdInTrace(
  topic: string,
  count: number,
  sampled = true,
): { records: OutgoingRecord[]; traceId: string } {
  const caller = trace.setSpanContext(ROOT_CONTEXT, {
    traceId: randomBytes(16).toString('hex'),
    spanId: randomBytes(8).toString('hex'),
    traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  });
  const request = tracer.startSpan('request', {}, caller);
  const records = context.with(trace.setSpan(ROOT_CONTEXT, request), () =>
    traceRecordCreation(Array.from({ length: count }, (_, i) => ({ topic, key: `k${i}`, value: 'v' }))),
  );
  request.end();
  return { records, traceId: request.spanContext().traceId };
}

beforeEach(() => exporter.reset());

describe('Kafka spans', () => {
  it('gives the records of one caller and topic one create span, whose context their headers carry', () => {
    const { records, traceId } = createdInTrace('events', 3);
    const [create] = named('create events');
    expect(create.kind).toBe(SpanKind.PRODUCER);
    expect(create.spanContext().traceId).toBe(traceId);
    expect(create.attributes).toEqual({
      'messaging.system': 'kafka',
      'messaging.operation.type': 'create',
      'messaging.operation.name': 'create',
      'messaging.destination.name': 'events',
      'messaging.batch.message_count': 3,
    });
    for (const record of records)
      expect(record.headers?.traceparent).toBe(`00-${traceId}-${create.spanContext().spanId}-01`);
  });

  it("links a produce request carrying two requests' records to both creation contexts instead of adopting either as parent", async () => {
    const producer = fakeProducer();
    const batching = new BatchingProducer(producer as unknown as KafkaProducer, {
      ...DEFAULT_BATCHING,
      lingerMs: 5,
    });
    const first = createdInTrace('events', 1);
    const second = createdInTrace('events', 2);
    // The first caller's context is active when the batch's timer starts: it must not become the send span's parent.
    const firstRequest = named('request')[0];
    await context.with(trace.setSpanContext(ROOT_CONTEXT, firstRequest.spanContext()), () =>
      Promise.all([batching.send(first.records), batching.send(second.records)]),
    );

    expect(producer.requests).toHaveLength(1);
    const [send] = named('send events');
    expect(send.kind).toBe(SpanKind.CLIENT);
    expect(send.parentSpanContext).toBeUndefined();
    expect(send.links.map((l) => l.context.traceId).sort()).toEqual([first.traceId, second.traceId].sort());
    expect(send.links.map((l) => l.context.spanId).sort()).toEqual(
      named('create events')
        .map((s) => s.spanContext().spanId)
        .sort(),
    );
    expect(send.attributes).toMatchObject({
      'messaging.operation.type': 'send',
      'messaging.batch.message_count': 3,
      'messaging.destination.partition.id': '3',
    });
    expect(send.attributes['messaging.kafka.offset']).toBeUndefined();
  });

  it("leaves out of a produce request's links the traces a caller chose not to sample, and makes no span when none is sampled", async () => {
    const producer = fakeProducer();
    const batching = new BatchingProducer(producer as unknown as KafkaProducer, {
      ...DEFAULT_BATCHING,
      lingerMs: 5,
    });
    const unsampled = [createdInTrace('audiences', 1, false), createdInTrace('audiences', 1, false)];
    await Promise.all(unsampled.map(({ records }) => batching.send(records)));
    expect(producer.requests).toHaveLength(1);
    expect(named('send audiences')).toEqual([]);

    const sampled = createdInTrace('events', 1);
    const notSampled = createdInTrace('events', 1, false);
    await Promise.all([batching.send(sampled.records), batching.send(notSampled.records)]);
    const [send] = named('send events');
    expect(send.links.map((l) => l.context.traceId)).toEqual([sampled.traceId]);
  });

  it("makes a produce request of one caller's single record a child of its create span, with the offset the broker gave", async () => {
    const producer = fakeProducer();
    const { records } = createdInTrace('retry.1', 1);
    await new BatchingProducer(producer as unknown as KafkaProducer, DEFAULT_BATCHING).send(records);
    const [create] = named('create retry.1');
    const [send] = named('send retry.1');
    expect(send.parentSpanContext?.spanId).toBe(create.spanContext().spanId);
    expect(send.attributes).toMatchObject({
      'messaging.destination.partition.id': '3',
      'messaging.kafka.offset': 41,
    });
    expect(send.attributes['messaging.batch.message_count']).toBeUndefined();
  });

  it("marks the send spans of a refused produce request ERROR with the error's type", async () => {
    const refusal = Object.assign(new Error('not enough replicas'), { name: 'KafkaJSProtocolError' });
    const { records } = createdInTrace('events', 1);
    await expect(
      new BatchingProducer(fakeProducer(refusal) as unknown as KafkaProducer, DEFAULT_BATCHING).send(records),
    ).rejects.toThrow(refusal);
    const [send] = named('send events');
    expect(send.status).toEqual({ code: SpanStatusCode.ERROR, message: 'not enough replicas' });
    expect(send.attributes['error.type']).toBe('KafkaJSProtocolError');
  });

  it('processes a record in a span that continues its creation context and says where it was read', async () => {
    const { records, traceId } = createdInTrace('deliveries', 1);
    const inner = await withProcessSpan(
      { topic: 'deliveries', partition: 2, offset: '17', headers: records[0].headers },
      'ns.delivery',
      async () => trace.getActiveSpan()?.spanContext(),
    );
    const [process] = named('process deliveries');
    expect(inner?.spanId).toBe(process.spanContext().spanId);
    expect(process.kind).toBe(SpanKind.CONSUMER);
    expect(process.spanContext().traceId).toBe(traceId);
    expect(process.parentSpanContext?.spanId).toBe(named('create deliveries')[0].spanContext().spanId);
    expect(process.attributes).toMatchObject({
      'messaging.operation.type': 'process',
      'messaging.consumer.group.name': 'ns.delivery',
      'messaging.destination.partition.id': '2',
      'messaging.kafka.offset': 17,
    });
  });

  it("links a re-produced record's new create span to the trace it came from (a replayed dead letter)", () => {
    const { records: dead, traceId: originalTrace } = createdInTrace('deliveries.dead', 1);
    const { traceId: replayTrace } = createdInTrace('unrelated', 1);
    const replayRequest = named('request')[1];
    const withState: OutgoingRecord = {
      ...dead[0],
      topic: 'deliveries',
      headers: { ...dead[0].headers, tracestate: 'vendor=of-the-old-trace', 'x-switchyard-attempt': '3' },
    };
    const [replayed] = context.with(trace.setSpanContext(ROOT_CONTEXT, replayRequest.spanContext()), () =>
      traceRecordCreation([withState]),
    );
    const [create] = named('create deliveries');
    expect(create.spanContext().traceId).toBe(replayTrace);
    expect(create.links.map((l) => l.context.traceId)).toEqual([originalTrace]);
    expect(replayed.headers?.traceparent).toContain(replayTrace);
    expect(replayed.headers).toEqual({ traceparent: expect.any(String), 'x-switchyard-attempt': '3' });
  });
});
