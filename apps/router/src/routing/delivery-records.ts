import { Call, deliveryKey, newJobHeaders, TopicNames, WebhookEnvelope } from '@switchyard/contracts';
import { Destination, destinationKey, WEBHOOKS_DESTINATION_TYPE } from '@switchyard/config';
import { webhookEnvelope } from '@switchyard/webhooks';
import { OutputRecord } from '../pipeline/output-record';
import { filtersOf } from './destination-filters';
import { FilteredAway, filteredAttemptsRecord } from './filtered-attempts';
import { countFiltered } from './filter-metrics';
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
  return jobRecords(
    topic,
    destinations.map((destination) => ({ destination, body: message.body })),
    message,
  );
}

/** A destination and the body it is sent: the message's own, or the one its filters reshaped. */
interface Send {
  destination: Destination;
  body: WebhookEnvelope;
}

/** The message's own body is serialised at most once, whichever destinations share it. */
function jobRecords(topic: string, sends: readonly Send[], message: Addressed): OutputRecord[] {
  let shared: string | undefined;
  const receivedAt = message.receivedAt === undefined ? undefined : Date.parse(message.receivedAt);
  return sends.map(({ destination, body }) => ({
    topic,
    key: deliveryKey(destination.id, message.sourceId, message.userKey),
    value: body === message.body ? (shared ??= JSON.stringify(body)) : JSON.stringify(body),
    headers: newJobHeaders(
      { destinationId: destination.id, sourceId: message.sourceId, messageId: message.messageId },
      {},
      receivedAt,
    ),
  }));
}

/** What routing one call makes: its delivery jobs, and the attempts-topic records of the destinations its filters kept it from. */
export interface RoutedCall {
  jobs: OutputRecord[];
  filtered: OutputRecord[];
}

const NOTHING_ROUTED: RoutedCall = { jobs: [], filtered: [] };

/**
 * The routing rule for any call, ingested or generated (audience identify calls): the source's
 * enabled Webhooks destinations that the call's integrations allow, each through its own
 * filters, one job each.
 */
export function routeCall(
  topics: Pick<TopicNames, 'deliveries' | 'deliveryAttempts'>,
  sourceDestinations: readonly Destination[],
  sourceId: string,
  call: Call,
  nowMs = Date.now(),
): RoutedCall {
  const destinations = receivingDestinations(sourceDestinations, call.integrations);
  if (destinations.length === 0) return NOTHING_ROUTED;
  const message = {
    sourceId,
    userKey: call.userId ?? call.anonymousId ?? '',
    messageId: call.messageId,
    body: webhookEnvelope(call),
    receivedAt: call.receivedAt,
  };
  const sends: Send[] = [];
  const filtered: FilteredAway[] = [];
  for (const destination of destinations) {
    const verdict = filtersOf(destination)?.(message.body, call.messageId) ?? { send: message.body };
    if ('send' in verdict) sends.push({ destination, body: verdict.send });
    else {
      countFiltered(destination.id, verdict.filtered);
      filtered.push({ destinationId: destination.id, by: verdict.filtered });
    }
  }
  return {
    jobs: jobRecords(topics.deliveries, sends, message),
    filtered:
      filtered.length === 0
        ? []
        : [filteredAttemptsRecord(topics.deliveryAttempts, sourceId, call, filtered, nowMs)],
  };
}

/** Every record of a routed call, jobs first. */
export function routedRecords({ jobs, filtered }: RoutedCall): OutputRecord[] {
  return filtered.length === 0 ? jobs : [...jobs, ...filtered];
}
