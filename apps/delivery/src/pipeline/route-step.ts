import {
  decodeDeliveryHeaders,
  encodeDeliveryHeaders,
  RecordHeaders,
  TopicNames,
} from '@switchyard/contracts';
import type { OutgoingRecord } from '@switchyard/kafka';
import { NextStep } from '../delivery-vocabulary';

export interface IncomingRecord {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: RecordHeaders;
}

/**
 * Stage 5: the record a step writes, or none once delivered. The job's value travels unchanged
 * (byte for byte), so a replay sends what the router produced; its history rides in headers.
 */
export function outputRecord(
  step: NextStep,
  record: IncomingRecord,
  topics: TopicNames,
  nowMs: number,
): OutgoingRecord | undefined {
  if (step.kind === 'delivered') return undefined;
  const key = record.key?.toString('utf8') ?? null;
  const value = record.value ?? Buffer.alloc(0);
  const { ids, trace, receivedAt } = decodeDeliveryHeaders(record.headers);
  if (step.kind === 'retry' || step.kind === 'throttled')
    return {
      topic: topics.retry(step.tier),
      key,
      value,
      headers: encodeDeliveryHeaders({ ids, trace, receivedAt, state: step.state }),
    };
  const dead = { failure: step.failure, deadAt: nowMs };
  return {
    topic: topics.deliveriesDead,
    key,
    value,
    headers: encodeDeliveryHeaders({ ids, trace, receivedAt, state: step.state, dead }),
  };
}
