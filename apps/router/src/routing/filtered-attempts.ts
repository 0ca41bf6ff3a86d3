import { Call, DeliveryAttempt, encodeDeliveryAttempts, FilteredBy } from '@switchyard/contracts';
import { OutputRecord } from '../pipeline/output-record';

/** A destination a call did not reach, and the rule that kept it away. */
export interface FilteredAway {
  destinationId: string;
  by: FilteredBy;
}

/**
 * One attempts-topic record naming the destinations a call's filters kept it from, in the shape
 * delivery writes its attempts: the console already reads that topic into a message's timeline,
 * so a filtered call shows there beside its deliveries, with no new topic or reader.
 */
export function filteredAttemptsRecord(
  topic: string,
  sourceId: string,
  call: Call,
  filtered: readonly FilteredAway[],
  nowMs: number,
): OutputRecord {
  const attempts = filtered.map(({ destinationId, by }): DeliveryAttempt => ({
    destinationId,
    messageId: call.messageId,
    sourceId,
    userId: call.userId,
    anonymousId: call.anonymousId,
    type: call.type,
    event: call.event,
    attempt: 0,
    durationMs: 0,
    at: nowMs,
    outcome: 'filtered',
    filter: by,
  }));
  return { topic, key: call.messageId, value: encodeDeliveryAttempts(attempts) };
}
