import { ReceivedSpan, SPAN_KIND } from './otlp-receiver';

/** The Kafka spans of some spans: those that say they are about Kafka. */
export function kafkaSpans(spans: ReceivedSpan[]): ReceivedSpan[] {
  return spans.filter((s) => s.attributes['messaging.system'] === 'kafka');
}

/** The one span named `name` among `spans`; fails the test, listing what there is, when there is not exactly one. */
export function onlySpan(
  spans: ReceivedSpan[],
  name: string,
  where: (s: ReceivedSpan) => boolean = () => true,
): ReceivedSpan {
  const found = spans.filter((s) => s.name === name && where(s));
  if (found.length !== 1)
    throw new Error(
      `expected one span "${name}", found ${found.length} among: ${spans.map((s) => s.name).join(', ')}`,
    );
  return found[0];
}

/**
 * The chain of spans from the root of `spans` down to `leaf`, root first, found by following
 * parent ids. At-least-once replays (a record processed again after a rebalance) add sibling
 * branches to a trace; the chain that ends at one delivered request stays one chain.
 */
export function lineage(spans: ReceivedSpan[], leaf: ReceivedSpan): ReceivedSpan[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const chain = [leaf];
  for (
    let parent = byId.get(leaf.parentSpanId);
    parent && !chain.includes(parent);
    parent = byId.get(parent.parentSpanId)
  )
    chain.unshift(parent);
  return chain;
}

const KIND_OF_OPERATION: Record<string, number[]> = {
  create: [SPAN_KIND.producer],
  // CLIENT when create spans made the records' contexts (always, for records of Switchyard's own).
  send: [SPAN_KIND.client, SPAN_KIND.producer],
  process: [SPAN_KIND.consumer],
};

/**
 * What OpenTelemetry's messaging conventions ask of a Kafka span, as a list of broken rules
 * (empty when it follows them): `{operation} {destination}` names, the operation's kind, and the
 * attributes each operation must carry.
 */
export function conventionProblems(span: ReceivedSpan): string[] {
  const a = span.attributes;
  const operation = String(a['messaging.operation.type']);
  const problems: string[] = [];
  const expect = (ok: boolean, rule: string) => ok || problems.push(`${span.name}: ${rule}`);
  expect(['create', 'send', 'process'].includes(operation), `operation type "${operation}"`);
  expect(a['messaging.operation.name'] === operation, 'operation name');
  expect(
    typeof a['messaging.destination.name'] === 'string' && a['messaging.destination.name'] !== '',
    'destination name',
  );
  expect(
    span.name === `${operation} ${String(a['messaging.destination.name'])}`,
    'name is "{operation} {destination}"',
  );
  expect((KIND_OF_OPERATION[operation] ?? []).includes(span.kind), `kind ${span.kind}`);
  if (operation === 'process') {
    expect(typeof a['messaging.consumer.group.name'] === 'string', 'consumer group');
    expect(/^\d+$/.test(String(a['messaging.destination.partition.id'])), 'partition id');
    expect(Number.isInteger(a['messaging.kafka.offset']), 'offset');
  }
  const count = a['messaging.batch.message_count'];
  expect(
    count === undefined || (Number.isInteger(count) && (count as number) > 1),
    'batch count only for batches',
  );
  return problems;
}
