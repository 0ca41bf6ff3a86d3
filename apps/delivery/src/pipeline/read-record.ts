import {
  decodeDeliveryHeaders,
  DELIVERY_RECORD_HEADERS,
  deliveryJobId,
  DeliveryJobIds,
  RecordHeaders,
  RetryState,
} from '@switchyard/contracts';
import { ReadyJob } from '../delivery-vocabulary';

export type ReadRecord =
  { ok: true; job: ReadyJob; state: RetryState } | { ok: false; reason: string; state: RetryState };

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Stage 1: a Kafka record as a delivery job and its history, or the reason it cannot be one.
 * The value is checked for the shape of a JSON object, not parsed: parsing it again was the
 * cost this contract removes, and only the router and dead-letter replays write these records.
 */
const ID_FIELDS: Array<keyof DeliveryJobIds> = ['destinationId', 'sourceId', 'messageId'];

export function readDeliveryRecord(value: Buffer | null, headers: RecordHeaders): ReadRecord {
  const { ids, state } = decodeDeliveryHeaders(headers);
  const problems = ID_FIELDS.filter((field) => ids[field] === undefined).map(
    (field) => `header ${DELIVERY_RECORD_HEADERS[field]} (${field}) is missing`,
  );
  if (!value || value.length < 2 || value[0] !== OPEN_BRACE || value[value.length - 1] !== CLOSE_BRACE)
    problems.push('the value must be the webhook envelope, a JSON object');
  const { destinationId, sourceId, messageId } = ids;
  if (!destinationId || !sourceId || !messageId || !value || problems.length > 0)
    return { ok: false, reason: `unreadable delivery job: ${problems.join('; ')}`, state };
  return {
    ok: true,
    job: { destinationId, sourceId, messageId, jobId: deliveryJobId(messageId, destinationId), body: value },
    state,
  };
}
