import { checkCall } from '../../contracts/src/calls/call-validation';
import type { FieldError } from './errors';
import type { CallType } from './messages';

/**
 * Checks a call record against the Tracking API's rules for its type: ingest's own rules (shared
 * from libs/contracts and built into this package), so the caller learns of a call ingest would
 * refuse when making it rather than from a refused batch later. A `timestamp` given as a Date is
 * checked as the ISO string it will be sent as. Returns the problems, each naming its field; an
 * empty list means the record is valid.
 */
export function validateMessage(type: CallType, record: unknown): FieldError[] {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    return [{ field: '', reason: 'the call must be an object' }];
  }
  const message = record as Record<string, unknown>;
  const timestamp = message.timestamp;
  const asSent = timestamp instanceof Date ? { ...message, timestamp: dateAsSent(timestamp) } : message;
  return checkCall(type, asSent).map(({ field, reason }) => ({ field, reason }));
}

/** An invalid Date reads as its text ("Invalid Date"), which the timestamp rule refuses by name. */
function dateAsSent(date: Date): string {
  return Number.isNaN(date.getTime()) ? String(date) : date.toISOString();
}
