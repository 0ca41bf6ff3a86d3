import { Call, CallType, JsonObject, normaliseTimestamp, WebhookEnvelope } from '@switchyard/contracts';

/** The integer every non-delete body carries, as Segment documents. */
export const ENVELOPE_VERSION = 1;

/** Page properties Segment's envelope names; filled from `context.page` when the call's own properties lack them. */
const PAGE_PROPERTIES = ['path', 'referrer', 'title', 'url'] as const;

/** What a delete notification is built from: one user of one source. */
export interface DeletionNotice {
  userId: string;
  /** When the deletion was requested; ISO 8601. */
  timestamp: string;
  /** Stable per (request, source, user), so a receiver can de-duplicate a redelivered notice. */
  messageId: string;
}

/**
 * The webhook body for one call, as Segment documents its Webhooks envelope:
 * `version`, `type`, `timestamp` and `context` on every call, then the fields of its kind.
 * `messageId` (and `anonymousId`, `receivedAt`, `sentAt` when the call has them) ride along so
 * receivers can de-duplicate at-least-once deliveries. Pure: same call, same body.
 */
export function webhookEnvelope(call: Call): WebhookEnvelope {
  // Built field by field, in the order receivers see (and signatures cover): the router makes one
  // for every call, so no intermediate objects are spread into it.
  const envelope: WebhookEnvelope = { version: ENVELOPE_VERSION, type: call.type, messageId: call.messageId };
  // Alias carries its ids as "Previous ID" / "User ID" instead (Segment's envelope has no userId on alias).
  if (call.type !== 'alias' && call.userId !== undefined) envelope.userId = call.userId;
  if (call.anonymousId !== undefined) envelope.anonymousId = call.anonymousId;
  envelope.timestamp = isoMillis(call.timestamp);
  Object.assign(envelope, KIND_FIELDS[call.type](call));
  envelope.context = call.context ?? {};
  if (call.receivedAt !== undefined) envelope.receivedAt = isoMillis(call.receivedAt);
  if (call.sentAt !== undefined) envelope.sentAt = isoMillis(call.sentAt);
  return envelope;
}

/** The delete notification: only `type`, `userId`, `timestamp` (no `version`), plus `messageId` for de-duplication. */
export function deleteEnvelope(notice: DeletionNotice): WebhookEnvelope {
  return {
    type: 'delete',
    messageId: notice.messageId,
    userId: notice.userId,
    timestamp: isoMillis(notice.timestamp),
  };
}

/** The fields only one kind of call carries, per kind as Segment documents them. */
const KIND_FIELDS: Record<CallType, (call: Call) => JsonObject> = {
  identify: (call) => ({ traits: call.traits ?? {} }),
  track: (call) => ({ event: call.event, properties: call.properties ?? {} }),
  page: (call) => ({
    ...present({ name: call.name, category: call.category }),
    properties: pageProperties(call),
  }),
  screen: (call) => present({ name: call.name }),
  group: (call) => ({ groupId: call.groupId, traits: call.traits ?? {} }),
  // Segment's alias body names the two ids with these exact keys, and has no plain `userId`.
  alias: (call) => ({ 'Previous ID': call.previousId, 'User ID': call.userId }),
};

/**
 * A page's properties with the four page fields Segment recognises. analytics.js sends them in
 * both `properties` and `context.page`; server libraries often only in one. The call's own
 * properties win.
 */
function pageProperties(call: Call): JsonObject {
  const fromContext = (call.context?.page ?? {}) as JsonObject;
  const recognised: JsonObject = {};
  for (const field of PAGE_PROPERTIES) {
    if (typeof fromContext[field] === 'string') recognised[field] = fromContext[field];
  }
  return { ...recognised, ...(call.properties ?? {}) };
}

/** ISO 8601 UTC with milliseconds; ingest already normalises, this keeps the guarantee local. */
function isoMillis(timestamp: string): string {
  const normalised = normaliseTimestamp(timestamp);
  if (normalised === undefined) throw new Error(`not an ISO 8601 date-time: ${timestamp}`);
  return normalised;
}

/** Drops keys whose value is undefined, so absent fields are absent rather than `null`. */
function present(fields: Record<string, unknown>): JsonObject {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
