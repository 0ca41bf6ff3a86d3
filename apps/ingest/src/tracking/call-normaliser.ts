import { Call, JsonObject, normaliseTimestamp } from '@switchyard/contracts';

/** What a request adds to each of its messages. */
export interface RequestContext {
  receivedAt: Date;
  /** Batch-level `context`, merged under each message's own. */
  context?: JsonObject;
  /** Batch-level `integrations`, merged under each message's own. */
  integrations?: JsonObject;
  /** Batch-level `sentAt`, used when a message has none. */
  sentAt?: string;
  /** The caller's address: the `context.ip` of calls that carry none (Segment fills it the same way). */
  clientIp?: string;
  newMessageId: () => string;
}

const asObject = (value: unknown): JsonObject | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;

/**
 * Turns one already-validated message into the stored call: type set, messageId assigned when
 * missing, request-level context and integrations merged in (the message's own keys win), and
 * every time as ISO 8601 UTC with milliseconds, and `context.ip` set to the caller's address when absent. A caller's `timestamp` is kept (historical
 * import); without one the call is stamped with the receipt time. Fields outside the Tracking
 * API (e.g. a body's `writeKey`) are not stored.
 */
export function normaliseCall(raw: JsonObject, request: RequestContext): Call {
  const receivedAt = request.receivedAt.toISOString();
  const call: Call = {
    type: raw.type as Call['type'],
    messageId: typeof raw.messageId === 'string' ? raw.messageId : request.newMessageId(),
    context: withIp(mergeUnder(request.context, asObject(raw.context)), request.clientIp),
    integrations: mergeUnder(request.integrations, asObject(raw.integrations)),
    timestamp: normaliseTimestamp(raw.timestamp) ?? receivedAt,
    receivedAt,
  };
  copyStrings(raw, call, ['userId', 'anonymousId', 'event', 'name', 'category', 'groupId', 'previousId']);
  if (asObject(raw.properties)) call.properties = raw.properties as JsonObject;
  if (asObject(raw.traits)) call.traits = raw.traits as JsonObject;
  const originalTimestamp = normaliseTimestamp(raw.originalTimestamp);
  if (originalTimestamp) call.originalTimestamp = originalTimestamp;
  const sentAt = normaliseTimestamp(raw.sentAt) ?? normaliseTimestamp(request.sentAt);
  if (sentAt) call.sentAt = sentAt;
  return call;
}

/** `own` over `defaults`; `own` itself when there are no defaults (the usual case: no copy). */
function mergeUnder(defaults: JsonObject | undefined, own: JsonObject | undefined): JsonObject {
  return defaults ? { ...defaults, ...own } : (own ?? {});
}

/** A copy with `ip` when the call has none: the caller's own objects are never changed. */
function withIp(context: JsonObject, clientIp: string | undefined): JsonObject {
  return clientIp === undefined || (context.ip !== undefined && context.ip !== null)
    ? context
    : { ...context, ip: clientIp };
}

function copyStrings(from: JsonObject, to: Call, keys: Array<keyof Call & string>): void {
  for (const key of keys) {
    const value = from[key];
    if (typeof value === 'string') (to as unknown as JsonObject)[key] = value;
  }
}
