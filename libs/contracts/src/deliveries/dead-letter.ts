import { RecordHeaders } from '../record-headers';
import { DeadFailureAsRead, UNKNOWN_DEAD_FAILURE } from './dead-failure';
import { decodeDeliveryHeaders, deliveryJobId } from './delivery-record';

/**
 * One record of the dead-letter topic as delivery's `/dead-letters` and the console show it. `id`
 * is `<partition>:<offset>`, what a replay by id names.
 */
export interface DeadLetter {
  id: string;
  jobId?: string;
  destinationId?: string;
  sourceId?: string;
  messageId?: string;
  failure: DeadFailureAsRead;
  reason: string;
  attempts: number;
  replays: number;
  firstAttemptAt?: string;
  lastAttemptAt?: string;
  deadAt?: string;
}

export function describeDeadRecord(partition: number, offset: string, headers: RecordHeaders): DeadLetter {
  const { ids, state, dead } = decodeDeliveryHeaders(headers);
  const { destinationId, sourceId, messageId } = ids;
  const iso = (ms: number | undefined) =>
    ms === undefined || Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
  return {
    id: `${partition}:${offset}`,
    jobId: destinationId && messageId ? deliveryJobId(messageId, destinationId) : undefined,
    destinationId,
    sourceId,
    messageId,
    failure: dead?.failure ?? UNKNOWN_DEAD_FAILURE,
    reason: state.lastError ?? 'unknown',
    attempts: state.attempt,
    replays: state.replays,
    firstAttemptAt: iso(state.firstAttemptAt),
    lastAttemptAt: iso(state.lastAttemptAt),
    deadAt: iso(dead?.deadAt),
  };
}
