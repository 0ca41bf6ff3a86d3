import { Call } from '../calls/call';
import { validateCall } from '../calls/call-validation';
import { normaliseTimestamp } from '../calls/timestamp';
import { Decoded, decodeJson } from '../json/json-codec';

/**
 * The wire format of the events topic, written by ingest and read by the router:
 * - value: JSON `{sourceId, call}`, the call as ingest normalised it;
 * - key: `<sourceId>:<userId or anonymousId>`, so one user's calls stay on one partition and in
 *   order through the router;
 * - headers: none of its own; trace context travels as `traceparent`, added when the record is created.
 */
export interface IngestedEvent {
  sourceId: string;
  call: Call;
}

/** An empty userId counts as none: analytics-kotlin sends `"userId": ""` for anonymous users. */
export function eventKey(sourceId: string, call: Pick<Call, 'userId' | 'anonymousId'>): string {
  return `${sourceId}:${call.userId || call.anonymousId || ''}`;
}

/** The events-topic record of one accepted call. */
export function encodeIngestedEvent(sourceId: string, call: Call): { key: string; value: string } {
  // Text, not a Buffer: the client writes a string straight into the record batch, one copy fewer.
  return { key: eventKey(sourceId, call), value: JSON.stringify({ sourceId, call } satisfies IngestedEvent) };
}

/**
 * Decodes and re-validates one events-topic value. Ingest validated it already; a reader checks
 * again because anything may write to the topic, and a record it cannot route must be
 * dead-lettered with a reason rather than crash the consumer or block the partition.
 */
export function decodeIngestedEvent(value: Buffer | null): Decoded<IngestedEvent> {
  const decoded = decodeJson<Partial<IngestedEvent>>(value);
  if (!decoded.ok) return decoded;
  const event = decoded.value;
  if (typeof event !== 'object' || event === null || Array.isArray(event))
    return invalid('value must be a JSON object {sourceId, call}');
  if (typeof event.sourceId !== 'string' || event.sourceId === '')
    return invalid('sourceId must be a non-empty string');
  const problems = validateCall(event.call);
  if (problems.length > 0)
    return invalid(problems.map((p) => (p.field ? `call.${p.field}: ${p.reason}` : p.reason)).join('; '));
  const call = event.call!;
  // Fields ingest always sets, which the envelope and the delivery job rely on.
  if (typeof call.messageId !== 'string' || call.messageId === '')
    return invalid('call.messageId: required (ingest assigns it)');
  if (normaliseTimestamp(call.timestamp) === undefined)
    return invalid('call.timestamp: required ISO 8601 date-time (ingest stamps it)');
  return { ok: true, value: event as IngestedEvent };
}

function invalid(reason: string): Decoded<never> {
  return { ok: false, reason: `invalid event: ${reason}` };
}
