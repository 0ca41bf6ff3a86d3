import { Call, deliveryKey, newJobHeaders, WebhookEnvelope } from '@switchyard/contracts';
import { Destination, destinationKey, WEBHOOKS_DESTINATION_TYPE } from '@switchyard/config';
import { webhookEnvelope } from '@switchyard/webhooks';
import { OutputRecord } from '../pipeline/output-record';
import { integrationAllows } from './integrations-filter';

/** Switched-on Webhooks destinations among a source's destinations. */
export function enabledWebhooks(destinations: readonly Destination[]): Destination[] {
  return destinations.filter((d) => d.enabled && d.type === WEBHOOKS_DESTINATION_TYPE);
}

/** The source's destinations that receive a call with these integrations flags. */
export function receivingDestinations(
  destinations: readonly Destination[],
  integrations: Record<string, unknown> | undefined,
): Destination[] {
  return enabledWebhooks(destinations).filter((d) => integrationAllows(integrations, destinationKey(d)));
}

/** What one body is about: the message, its source and user (the user keeps jobs in order). */
export interface Addressed {
  sourceId: string;
  userKey: string;
  messageId: string;
  body: WebhookEnvelope;
  /** When ingest received the call (ISO 8601): rides in a header so delivery can measure the event's age at delivery. */
  receivedAt?: string;
}

/**
 * One deliveries-topic record per destination, keyed so one user's jobs for one destination stay
 * in order. The envelope is serialised once; every destination's record carries those bytes.
 */
export function deliveryRecords(
  topic: string,
  destinations: readonly Destination[],
  message: Addressed,
): OutputRecord[] {
  const value = JSON.stringify(message.body);
  const receivedAt = message.receivedAt === undefined ? undefined : Date.parse(message.receivedAt);
  return destinations.map((destination) => ({
    topic,
    key: deliveryKey(destination.id, message.sourceId, message.userKey),
    value,
    headers: newJobHeaders(
      { destinationId: destination.id, sourceId: message.sourceId, messageId: message.messageId },
      {},
      receivedAt,
    ),
  }));
}

/**
 * The routing rule for any call, ingested or generated (audience identify calls): the source's
 * enabled Webhooks destinations that the call's integrations allow, one job each.
 */
export function routeCall(
  topic: string,
  sourceDestinations: readonly Destination[],
  sourceId: string,
  call: Call,
): OutputRecord[] {
  const destinations = receivingDestinations(sourceDestinations, call.integrations);
  if (destinations.length === 0) return [];
  const message = {
    sourceId,
    userKey: call.userId ?? call.anonymousId ?? '',
    messageId: call.messageId,
    body: webhookEnvelope(call),
    receivedAt: call.receivedAt,
  };
  return deliveryRecords(topic, destinations, message);
}
