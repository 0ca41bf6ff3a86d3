import type { KafkaMessage } from 'kafkajs';
import { encodeJson } from '@switchyard/kafka';
import { OutputRecord } from './output-record';

/** Header naming why a record was dead-lettered, for tools that only read headers. */
export const DEAD_REASON_HEADER = 'x-switchyard-dead-reason';

/** Where a dead record came from. */
export interface DeadRecordOrigin {
  topic: string;
  partition: number;
  message: KafkaMessage;
}

/**
 * A record the router could not read, wrapped with its reason and origin so an operator can
 * fix and replay it. The value is JSON (the original value as UTF-8 text inside), so any tool
 * reading the dead-letter topic as JSON can; the original key is kept as the record key.
 */
export function deadLetter(deadTopic: string, origin: DeadRecordOrigin, reason: string): OutputRecord {
  const { topic, partition, message } = origin;
  return {
    topic: deadTopic,
    key: message.key?.toString('utf8') ?? '',
    value: encodeJson({
      reason,
      topic,
      partition,
      offset: message.offset,
      key: message.key?.toString('utf8') ?? null,
      value: message.value?.toString('utf8') ?? null,
    }),
    headers: { [DEAD_REASON_HEADER]: reason },
  };
}
