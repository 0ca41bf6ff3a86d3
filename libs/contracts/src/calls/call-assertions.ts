import { CallType } from './call';
import { normaliseTimestamp } from './timestamp';

// The Tracking API's rules, one plain named assertion per field rule, composed per call type (in
// the manner of analytics-next's validation/assertions.ts). Each answers undefined when the
// message passes, or the one problem to fix; the problems carry a kind, and callers choose an HTTP
// status from the kind, never from the wording.
// Ingest and the TypeScript client (libs/analytics, published on its own) both enforce these
// rules, so this file, call-validation.ts, call.ts and timestamp.ts import nothing else.

/** What is wrong with a field: absent, present but not allowed, or over a size limit. */
export type FieldErrorKind = 'missing' | 'invalid' | 'too_large';

/** A rule a call breaks: the field, the reason to show, and its kind (a FieldError with a kind). */
export interface CallProblem {
  field: string;
  reason: string;
  kind: FieldErrorKind;
}

export type Message = Record<string, unknown>;
type Assertion = (message: Message) => CallProblem | undefined;

/** Longest id we accept; longer ones are almost always a bug in the caller (a JSON blob as id). */
const MAX_ID_LENGTH = 512;

const absent = (value: unknown) => value === undefined || value === null;
const problem = (field: string, kind: FieldErrorKind, reason: string): CallProblem => ({
  field,
  reason,
  kind,
});

/** Characters as a reader counts them: an emoji is one, a variation selector none. */
function characterCount(text: string): number {
  let count = 0;
  for (const char of text) if (char !== '\uFE0F' && char !== '\uFE0E') count++;
  return count;
}

/** A non-empty string of at most MAX_ID_LENGTH characters; `missing` words its absence. */
function id(field: string, missing: string): Assertion {
  return (message) => {
    const value = message[field];
    if (absent(value)) return problem(field, 'missing', missing);
    if (typeof value !== 'string') return problem(field, 'invalid', `${field} must be a string`);
    if (value === '') return problem(field, 'invalid', `${field} should not be empty`);
    if (characterCount(value) > MAX_ID_LENGTH)
      return problem(
        field,
        'invalid',
        `${field} must be shorter than or equal to ${MAX_ID_LENGTH} characters`,
      );
    return undefined;
  };
}

/** Applies `assertion` only when the field is there (null counts as not there, as Segment's SDKs send it). */
function optional(field: string, assertion: Assertion): Assertion {
  return (message) => (absent(message[field]) ? undefined : assertion(message));
}

function string(field: string): Assertion {
  return (message) =>
    typeof message[field] === 'string' ? undefined : problem(field, 'invalid', `${field} must be a string`);
}

function object(field: string): Assertion {
  return (message) => {
    const value = message[field];
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? undefined
      : problem(field, 'invalid', `${field} must be an object`);
  };
}

function timestamp(field: string): Assertion {
  return (message) =>
    normaliseTimestamp(message[field]) !== undefined
      ? undefined
      : problem(field, 'invalid', `${field} must be an ISO 8601 date-time`);
}

const IDENTITY_REASON = 'userId or anonymousId is required (a non-empty string)';

/** userId, unless an anonymousId stands in for it (alias always needs userId: it is the new id). */
const userIdentity: Assertion = (message) => {
  if (!absent(message.anonymousId)) return undefined;
  const error = id('userId', IDENTITY_REASON)(message);
  return error && { ...error, reason: IDENTITY_REASON };
};

const trackEvent: Assertion = (message) => {
  const event = message.event;
  if (absent(event)) return problem('event', 'missing', 'event is required for track');
  if (typeof event !== 'string') return problem('event', 'invalid', 'event must be a string');
  if (event === '') return problem('event', 'invalid', 'event must not be empty');
  return undefined;
};

/** Rules every call shares, after its type's own. */
const COMMON: Assertion[] = [
  optional('anonymousId', id('anonymousId', '')),
  optional('messageId', id('messageId', '')),
  optional('context', object('context')),
  optional('integrations', object('integrations')),
  optional('timestamp', timestamp('timestamp')),
  optional('sentAt', timestamp('sentAt')),
  optional('originalTimestamp', timestamp('originalTimestamp')),
];

const PAGE: Assertion[] = [
  optional('name', string('name')),
  optional('category', string('category')),
  optional('properties', object('properties')),
  userIdentity,
];

/** Each call type's rules: its own fields first, then identity, then the common ones. */
export const CALL_ASSERTIONS: Record<CallType, readonly Assertion[]> = {
  identify: [optional('traits', object('traits')), userIdentity, ...COMMON],
  track: [trackEvent, optional('properties', object('properties')), userIdentity, ...COMMON],
  page: [...PAGE, ...COMMON],
  screen: [...PAGE, ...COMMON],
  group: [
    id('groupId', 'groupId is required for group'),
    optional('traits', object('traits')),
    userIdentity,
    ...COMMON,
  ],
  alias: [
    id('userId', 'userId is required for alias'),
    id('previousId', 'previousId is required for alias'),
    ...COMMON,
  ],
};
