/** The JSON body POSTed to each webhook URL (the seed's "Webhook request envelope"). */
export type WebhookEnvelope = Record<string, unknown>;

/**
 * Value of a record on the deliveries topic: one call for one destination. The destination's
 * URLs, headers and secret are looked up in the workspace configuration at delivery time, so
 * secrets never sit in Kafka and a corrected URL applies to jobs already waiting for a retry.
 */
export interface DeliveryJob {
  /** `<messageId>:<destinationId>`: stable across retries and replays. */
  jobId: string;
  destinationId: string;
  sourceId: string;
  messageId: string;
  body: WebhookEnvelope;
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
