import { randomUUID } from 'node:crypto';
import { normaliseTimestamp } from '../../contracts/src/calls/timestamp';
import { MessageTooLargeError, ValidationError } from './errors';
import type { CallType } from './messages';
import { validateMessage } from './message-validation';
import { LIBRARY_NAME, LIBRARY_VERSION } from './version';

const LIBRARY = { name: LIBRARY_NAME, version: LIBRARY_VERSION };

/** A call ready to send: its id, and its JSON encoded once so batching only concatenates. */
export interface EncodedMessage {
  messageId: string;
  json: string;
  bytes: number;
}

/**
 * Validates a call record and turns it into the Tracking API's JSON. The caller's `timestamp` is
 * kept (historical import) and otherwise left out, so ingest stamps the call at receipt as
 * Segment documents; `originalTimestamp` always records when the call was made on this machine.
 * Throws ValidationError or MessageTooLargeError; nothing is encoded for a refused call.
 */
export function encodeMessage(
  type: CallType,
  record: object,
  now: Date,
  maxMessageBytes: number,
): EncodedMessage {
  const errors = validateMessage(type, record);
  if (errors.length > 0) throw new ValidationError(type, errors);

  const fields = record as { messageId?: string; timestamp?: Date | string; context?: object };
  const messageId = fields.messageId ?? randomUUID();
  // Object.assign rather than spread: this runs on every call, and V8 runs it faster.
  const message: Record<string, unknown> = Object.assign({}, record, {
    type,
    messageId,
    originalTimestamp: now.toISOString(),
  });
  // Validated above: a Date is valid and a string is one of the ISO 8601 forms ingest reads.
  if (fields.timestamp instanceof Date) message.timestamp = fields.timestamp.toISOString();
  else if (typeof fields.timestamp === 'string') message.timestamp = normaliseTimestamp(fields.timestamp);
  message.context = Object.assign({ library: LIBRARY }, fields.context);
  const json = serialise(type, message);
  const bytes = Buffer.byteLength(json);
  if (bytes > maxMessageBytes) throw new MessageTooLargeError(type, bytes, maxMessageBytes);
  return { messageId, json, bytes };
}

function serialise(type: CallType, message: object): string {
  try {
    return JSON.stringify(message);
  } catch (error) {
    // Circular structures and BigInt values cannot be sent; say so now rather than lose the call later.
    throw new ValidationError(type, [
      { field: '', reason: `the call is not JSON-serialisable: ${(error as Error).message}` },
    ]);
  }
}
