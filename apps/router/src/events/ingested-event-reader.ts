import { Decoded, decodeJson, IngestedEvent, normaliseTimestamp, validateCall } from '@switchyard/contracts';

/**
 * Decodes and re-validates one events-topic value. Ingest validated it already; the router
 * checks again because anything may write to the topic, and a record it cannot route must be
 * dead-lettered with a reason rather than crash the consumer or block the partition.
 */
export function readIngestedEvent(value: Buffer | null): Decoded<IngestedEvent> {
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
