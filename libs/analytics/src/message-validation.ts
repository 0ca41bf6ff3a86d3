import type { FieldError } from './errors';
import type { CallType } from './messages';

/** Same bound as ingest: a longer id is almost always a bug in the caller (a JSON blob as id). */
const MAX_ID_LENGTH = 512;

type Rule = 'id' | 'requiredString' | 'string' | 'object';

/** What each call type needs beyond the common fields; identity (userId/anonymousId) is checked apart. */
const FIELD_RULES: Record<CallType, Record<string, Rule>> = {
  identify: { traits: 'object' },
  track: { event: 'requiredString', properties: 'object' },
  page: { name: 'string', category: 'string', properties: 'object' },
  screen: { name: 'string', category: 'string', properties: 'object' },
  group: { groupId: 'id', traits: 'object' },
  alias: { userId: 'id', previousId: 'id' },
};

const COMMON_RULES: Record<string, Rule> = { context: 'object', integrations: 'object', messageId: 'string' };

/** Each type's rules as a list, built once: validation runs on every call, in the caller's hot path. */
const RULE_LISTS = Object.fromEntries(
  Object.entries(FIELD_RULES).map(([type, rules]) => [type, Object.entries({ ...COMMON_RULES, ...rules })]),
) as Record<CallType, Array<[string, Rule]>>;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value !== '';

function checkRule(value: unknown, rule: Rule): string | undefined {
  switch (rule) {
    case 'id':
      if (!isNonEmptyString(value)) return 'is required (a non-empty string)';
      return value.length > MAX_ID_LENGTH ? `must be at most ${MAX_ID_LENGTH} characters` : undefined;
    case 'requiredString':
      return isNonEmptyString(value) ? undefined : 'is required (a non-empty string)';
    case 'string':
      return value === undefined || isNonEmptyString(value)
        ? undefined
        : 'must be a non-empty string when given';
    case 'object':
      return value === undefined || isPlainObject(value) ? undefined : 'must be an object when given';
  }
}

function checkIdentity(record: Record<string, unknown>): FieldError[] {
  const { userId, anonymousId } = record;
  if (userId === undefined && anonymousId === undefined) {
    return [{ field: 'userId', reason: 'userId or anonymousId is required (a non-empty string)' }];
  }
  const errors: FieldError[] = [];
  for (const [field, value] of [
    ['userId', userId],
    ['anonymousId', anonymousId],
  ] as const) {
    const reason = value === undefined ? undefined : checkRule(value, 'id');
    if (reason) errors.push({ field, reason });
  }
  return errors;
}

function checkTimestamp(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const time =
    value instanceof Date
      ? value.getTime()
      : typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value)
        ? Date.parse(value)
        : NaN;
  return Number.isNaN(time) ? 'must be a valid Date or an ISO 8601 date-time string' : undefined;
}

/**
 * Checks a call record against the Tracking API's rules for its type, as ingest would, so the
 * caller learns of a bad call when making it rather than from a refused batch later. Returns the
 * problems, each naming its field; an empty list means the record is valid.
 */
export function validateMessage(type: CallType, record: unknown): FieldError[] {
  if (!isPlainObject(record)) return [{ field: '', reason: 'the call must be an object' }];
  const errors = type === 'alias' ? [] : checkIdentity(record);
  for (const [field, rule] of RULE_LISTS[type]) {
    const reason = checkRule(record[field], rule);
    if (reason) errors.push({ field, reason });
  }
  const timestampReason = checkTimestamp(record.timestamp);
  if (timestampReason) errors.push({ field: 'timestamp', reason: timestampReason });
  return errors;
}
