/** The call kinds the Tracking API accepts: Segment's identify, track, page, group and alias, plus screen. */
export const CALL_TYPES = ['identify', 'track', 'page', 'screen', 'group', 'alias'] as const;
export type CallType = (typeof CALL_TYPES)[number];

export function isCallType(value: unknown): value is CallType {
  return typeof value === 'string' && (CALL_TYPES as readonly string[]).includes(value);
}

export type JsonObject = Record<string, unknown>;

/**
 * A call as ingest stores it on the events topic: Segment's message shape, normalised.
 * `timestamp` is always set (the caller's, or the receipt time) and, like `receivedAt`,
 * is ISO 8601 UTC with milliseconds.
 */
export interface Call {
  type: CallType;
  messageId: string;
  userId?: string;
  anonymousId?: string;
  event?: string;
  name?: string;
  category?: string;
  properties?: JsonObject;
  traits?: JsonObject;
  groupId?: string;
  previousId?: string;
  context: JsonObject;
  integrations: JsonObject;
  timestamp: string;
  originalTimestamp?: string;
  sentAt?: string;
  receivedAt: string;
}
