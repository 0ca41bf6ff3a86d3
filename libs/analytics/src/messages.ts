/**
 * The call records, as Segment's analytics-go v2 names them (camelCased as in Segment's JSON).
 * Every call needs a userId or an anonymousId, except alias, which needs userId and previousId.
 */

export type JsonMap = Record<string, unknown>;

/**
 * Destination selection: destination name → on/off (or that destination's options object).
 * All destinations are on by default; `All: false` turns off every one not set to true.
 */
export type Integrations = Record<string, boolean | JsonMap>;

/** Fields every call may carry. */
export interface CommonFields {
  /** Extra context (device, ip, locale…): facts about the call, not attributes of the user. */
  context?: JsonMap;
  integrations?: Integrations;
  /** When the call happened, for historical import. Omitted: ingest stamps the call at receipt. */
  timestamp?: Date | string;
  /** Your own id for de-duplication; a UUID is generated when omitted. */
  messageId?: string;
}

export type Identity = { userId: string; anonymousId?: string } | { userId?: string; anonymousId: string };

export type IdentifyMessage = CommonFields & Identity & { traits?: JsonMap };

export type TrackMessage = CommonFields & Identity & { event: string; properties?: JsonMap };

/** Recognised page properties: url, title, referrer, path; custom keys are kept as they are. */
export type PageMessage = CommonFields &
  Identity & { name?: string; category?: string; properties?: JsonMap };

export type ScreenMessage = PageMessage;

export type GroupMessage = CommonFields & Identity & { groupId: string; traits?: JsonMap };

export type AliasMessage = CommonFields & { userId: string; previousId: string };

export interface MessagesByType {
  identify: IdentifyMessage;
  track: TrackMessage;
  page: PageMessage;
  screen: ScreenMessage;
  group: GroupMessage;
  alias: AliasMessage;
}

export type CallType = keyof MessagesByType;
