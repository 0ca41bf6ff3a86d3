/** The JSON body POSTed to each webhook URL (the seed's "Webhook request envelope"). */
export type WebhookEnvelope = Record<string, unknown>;

/**
 * A record on the deliveries topic is one call for one destination:
 * - value: the webhook envelope as the exact JSON bytes to POST and sign, so delivery neither
 *   parses nor re-serialises it (that was a tenth of delivery's CPU);
 * - headers: the ids below (DELIVERY_JOB_HEADERS), beside the trace context;
 * - key: `deliveryKey(...)`.
 * The destination's URLs, headers and secret are looked up in the workspace configuration at
 * delivery time, so secrets never sit in Kafka and a corrected URL applies to jobs already
 * waiting for a retry.
 */
export interface DeliveryJobIds {
  destinationId: string;
  sourceId: string;
  messageId: string;
}

/** A delivery job as read back: its ids, its job id and its envelope. */
export interface DeliveryJob extends DeliveryJobIds {
  /** `<messageId>:<destinationId>`: stable across retries and replays. */
  jobId: string;
  body: WebhookEnvelope;
}

/** Kafka header names of a delivery job's ids. */
export const DELIVERY_JOB_HEADERS: Readonly<Record<keyof DeliveryJobIds, string>> = {
  destinationId: 'x-switchyard-destination-id',
  sourceId: 'x-switchyard-source-id',
  messageId: 'x-switchyard-message-id',
};

export function deliveryJobHeaders(ids: DeliveryJobIds): Record<string, string> {
  return {
    [DELIVERY_JOB_HEADERS.destinationId]: ids.destinationId,
    [DELIVERY_JOB_HEADERS.sourceId]: ids.sourceId,
    [DELIVERY_JOB_HEADERS.messageId]: ids.messageId,
  };
}

export function deliveryJobId(messageId: string, destinationId: string): string {
  return `${messageId}:${destinationId}`;
}

/** Deliveries-topic key: one user's jobs for one destination stay in order. */
export function deliveryKey(destinationId: string, sourceId: string, userKey: string): string {
  return `${destinationId}:${sourceId}:${userKey}`;
}

/** The destination a deliveries-topic key names (destination ids hold no colon), without reading the value. */
export function destinationIdOfKey(key: string): string {
  const end = key.indexOf(':');
  return end < 0 ? key : key.slice(0, end);
}
