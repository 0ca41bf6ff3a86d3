import { KafkaRecord } from '@switchyard/kafka';
import { encodeEventDeadLetter } from '@switchyard/contracts';
import { markSpanFailed, Span } from '@switchyard/telemetry';
import { OutputRecord } from './output-record';

/** Where a dead record came from. */
export interface DeadRecordOrigin {
  topic: string;
  partition: number;
  message: KafkaRecord;
}

/** A record the router could not read, as a record of the events dead-letter topic (format: EventDeadLetter). */
export function deadLetter(deadTopic: string, origin: DeadRecordOrigin, reason: string): OutputRecord {
  const { topic, partition, message } = origin;
  const record = encodeEventDeadLetter({
    reason,
    topic,
    partition,
    offset: message.offset,
    key: message.key?.toString('utf8') ?? null,
    value: message.value?.toString('utf8') ?? null,
  });
  return { topic: deadTopic, ...record };
}

/** Why the router dead-letters a record: it cannot be read (or is invalid), or it cannot be routed. */
export type RouterDeadFailure = 'unreadable' | 'unroutable';

/** Ends the record's process span as a failure a tracing backend can find: outcome, kind and reason. */
export function markDeadLettered(span: Span, failure: RouterDeadFailure, reason: string): void {
  span.setAttribute('switchyard.outcome', 'dead-lettered');
  markSpanFailed(span, failure, reason);
}
