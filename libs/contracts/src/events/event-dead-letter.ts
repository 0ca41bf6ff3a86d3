import { RecordHeaders, headerString } from '../record-headers';

/**
 * The wire format of the events dead-letter topic: a record the router could not read or route,
 * wrapped with its reason and origin so an operator can fix and replay it.
 * - value: JSON with the original value as UTF-8 text inside, so any tool reading the topic as
 *   JSON can;
 * - key: the original key;
 * - headers: the reason, for tools that read headers only.
 */
export interface EventDeadLetter {
  reason: string;
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: string | null;
}

export const EVENT_DEAD_LETTER_HEADERS = { reason: 'x-switchyard-dead-reason' } as const;

export function encodeEventDeadLetter(letter: EventDeadLetter): {
  key: string;
  value: Buffer;
  headers: Record<string, string>;
} {
  return {
    key: letter.key ?? '',
    value: Buffer.from(JSON.stringify(letter)),
    headers: { [EVENT_DEAD_LETTER_HEADERS.reason]: letter.reason },
  };
}

/** The dead letter a record holds, or undefined when it is not one. */
export function decodeEventDeadLetter(
  value: Buffer | null,
  headers?: RecordHeaders,
): EventDeadLetter | undefined {
  if (!value) return undefined;
  let parsed: Partial<EventDeadLetter>;
  try {
    parsed = JSON.parse(value.toString('utf8')) as Partial<EventDeadLetter>;
  } catch {
    return undefined;
  }
  const reason = parsed.reason ?? headerString(headers, EVENT_DEAD_LETTER_HEADERS.reason);
  if (
    typeof reason !== 'string' ||
    typeof parsed.topic !== 'string' ||
    typeof parsed.partition !== 'number' ||
    typeof parsed.offset !== 'string'
  )
    return undefined;
  return {
    reason,
    topic: parsed.topic,
    partition: parsed.partition,
    offset: parsed.offset,
    key: parsed.key ?? null,
    value: parsed.value ?? null,
  };
}
