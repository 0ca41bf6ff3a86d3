import { TopicNames } from '@switchyard/contracts';
import type { OutgoingRecord } from '@switchyard/kafka';
import { DELIVERY_HEADERS, KafkaHeaders, writeRetryState } from '../retry/retry-state';
import { NextStep } from './decide-next';

export interface IncomingRecord {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: KafkaHeaders;
}

/**
 * Stage 5: the record a step writes, or none once delivered. The job's value travels unchanged
 * (byte for byte), so a replay sends what the router produced; its history rides in headers.
 */
export function outputRecord(step: NextStep, record: IncomingRecord, topics: TopicNames, nowMs: number): OutgoingRecord | undefined {
  if (step.kind === 'delivered') return undefined;
  const key = record.key?.toString('utf8') ?? null;
  const value = record.value ?? Buffer.alloc(0);
  const headers = writeRetryState(step.state, record.headers);
  if (step.kind === 'retry') return { topic: topics.retry(step.tier), key, value, headers };
  headers[DELIVERY_HEADERS.failure] = step.failure;
  headers[DELIVERY_HEADERS.deadAt] = new Date(nowMs).toISOString();
  return { topic: topics.deliveriesDead, key, value, headers };
}
