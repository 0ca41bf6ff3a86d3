import type { DeliveryAttempt } from '@switchyard/contracts';

export type CallSummary = Pick<DeliveryAttempt, 'userId' | 'anonymousId' | 'type' | 'event'>;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/**
 * Who and what the call was, from the envelope's top-level fields. Only the envelope's head is
 * parsed: its members up to the first nested object or array (the envelope puts `type`, the ids,
 * `timestamp` and a track's `event` before `properties` and `context`), which is a fifth of the
 * bytes and of the cost of parsing it whole. When the head lacks the type, any user id, or a
 * track's event, the whole envelope is parsed. An alias names its user `User ID`.
 */
export function summariseEnvelope(body: Buffer): CallSummary {
  const head = topLevelHead(body);
  const fields = parseObject(head ?? body.toString('utf8'));
  if (!fields) return {};
  const all = head !== undefined && incomplete(fields) ? (parseObject(body.toString('utf8')) ?? fields) : fields;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return { userId: text(all.userId) ?? text(all['User ID']), anonymousId: text(all.anonymousId), type: text(all.type), event: text(all.event) };
}

function incomplete(head: Record<string, unknown>): boolean {
  const anyUser = head.userId !== undefined || head.anonymousId !== undefined || head['User ID'] !== undefined;
  return head.type === undefined || !anyUser || (head.type === 'track' && head.event === undefined);
}

/**
 * The object's members before its first nested object or array, closed as an object of their
 * own (`{"a":1,"b":"x"}` from `{"a":1,"b":"x","c":{…}}`); undefined when there is no nested value.
 */
function topLevelHead(body: Buffer): string | undefined {
  let inString = false;
  let lastComma = -1;
  for (let i = 1; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === COMMA) lastComma = i;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) return lastComma < 0 ? '{}' : `${body.toString('utf8', 0, lastComma)}}`;
  }
  return undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
