import {
  DeadLetter,
  decodeDeliveryHeaders,
  encodeDeliveryHeaders,
  RecordHeaders,
} from '@switchyard/contracts';

/** A dead letter and the raw record it came from (needed to replay it byte for byte). */
export interface DeadRecord {
  letter: DeadLetter;
  key: Buffer | null;
  value: Buffer | null;
  headers: RecordHeaders;
}

export interface DeadLetterFilter {
  id?: string;
  destinationId?: string;
  messageId?: string;
  /** Dead-lettered at or after (epoch ms). */
  from?: number;
  /** Dead-lettered before (epoch ms). */
  to?: number;
}

export function matchesFilter(letter: DeadLetter, filter: DeadLetterFilter): boolean {
  if (filter.id !== undefined && letter.id !== filter.id) return false;
  if (filter.destinationId !== undefined && letter.destinationId !== filter.destinationId) return false;
  if (filter.messageId !== undefined && letter.messageId !== filter.messageId) return false;
  const deadAt = letter.deadAt ? Date.parse(letter.deadAt) : NaN;
  if (filter.from !== undefined && !(deadAt >= filter.from)) return false;
  if (filter.to !== undefined && !(deadAt < filter.to)) return false;
  return true;
}

/**
 * Headers of a replayed job: a fresh start (no attempts, a new retry window) that keeps the
 * trace context and counts the replay, so a job that dies again shows how often it was replayed.
 */
export function replayHeaders(record: DeadRecord): Record<string, string> {
  const { ids, trace, receivedAt } = decodeDeliveryHeaders(record.headers);
  return encodeDeliveryHeaders({
    ids,
    trace,
    receivedAt,
    state: { attempt: 0, replays: record.letter.replays + 1 },
  });
}
