import type { DeliveryAttempt } from '@switchyard/contracts';

export type CallSummary = Pick<DeliveryAttempt, 'userId' | 'anonymousId' | 'type' | 'event'>;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** The top-level members a summary reads, by key length: the scan compares a key's bytes only when its length matches. */
const WANTED_BY_LENGTH = new Map<number, { key: WantedKey; bytes: Buffer }>(
  (['type', 'event', 'userId', 'User ID', 'anonymousId'] as const).map((key) => [
    key.length,
    { key, bytes: Buffer.from(key) },
  ]),
);
type WantedKey = 'type' | 'event' | 'userId' | 'User ID' | 'anonymousId';
type Found = Partial<Record<WantedKey, string>>;

/**
 * Who and what the call was, from the envelope's top-level string members, read by scanning its
 * bytes: no JSON.parse, and only the strings asked for become JavaScript strings (on every webhook
 * request, parsing the envelope's head was half of what the attempts topic cost delivery). The
 * envelope puts `type`, the ids and a track's `event` before `properties` and `context`, so the
 * scan stops at the first nested value once it has the type, a user id and, for a track, the
 * event; otherwise it steps over nested values to the end. An alias names its user `User ID`.
 * Keys written with escapes are not recognised: the router writes them plainly. A body that is
 * not a JSON object, or breaks off, gives nothing.
 */
export function summariseEnvelope(body: Buffer): CallSummary {
  const found = scanTopLevelStrings(body);
  if (!found) return {};
  return {
    userId: found.userId ?? found['User ID'],
    anonymousId: found.anonymousId,
    type: found.type,
    event: found.event,
  };
}

function scanTopLevelStrings(body: Buffer): Found | undefined {
  const found: Found = {};
  let i = skipSpace(body, 0);
  if (body[i] !== OPEN_BRACE) return undefined;
  i = skipSpace(body, i + 1);
  if (body[i] === CLOSE_BRACE) return found;
  for (;;) {
    if (body[i] !== QUOTE) return undefined;
    const keyEnd = stringEnd(body, i + 1);
    if (keyEnd < 0) return undefined;
    const key = wantedKey(body, i + 1, keyEnd);
    i = skipSpace(body, keyEnd + 1);
    if (body[i] !== COLON) return undefined;
    i = skipSpace(body, i + 1);
    const first = body[i];
    if (first === QUOTE) {
      const end = stringEnd(body, i + 1);
      if (end < 0) return undefined;
      if (key) found[key] = stringValue(body, i + 1, end);
      i = end + 1;
    } else if (first === OPEN_BRACE || first === OPEN_BRACKET) {
      if (complete(found)) return found;
      i = nestedEnd(body, i);
      if (i < 0) return undefined;
    } else {
      i = primitiveEnd(body, i);
    }
    i = skipSpace(body, i);
    if (body[i] === CLOSE_BRACE) return found;
    if (body[i] !== COMMA) return undefined;
    i = skipSpace(body, i + 1);
  }
}

function complete(found: Found): boolean {
  const anyUser =
    found.userId !== undefined || found.anonymousId !== undefined || found['User ID'] !== undefined;
  return found.type !== undefined && anyUser && (found.type !== 'track' || found.event !== undefined);
}

function wantedKey(body: Buffer, start: number, end: number): WantedKey | undefined {
  const wanted = WANTED_BY_LENGTH.get(end - start);
  if (!wanted) return undefined;
  for (let j = 0; j < wanted.bytes.length; j++) if (body[start + j] !== wanted.bytes[j]) return undefined;
  return wanted.key;
}

/** Longest string built in JavaScript from ASCII bytes; past it, Buffer's decoder is cheaper than its call. */
const SHORT_ASCII = 64;

/** A string's text; one with escapes is decoded by JSON.parse (undefined when they are not valid JSON). */
function stringValue(body: Buffer, start: number, end: number): string | undefined {
  if (end - start <= SHORT_ASCII) {
    let text = '';
    for (let j = start; j < end; j++) {
      const c = body[j];
      if (c >= 0x80 || c === BACKSLASH) return decodedString(body, start, end);
      text += String.fromCharCode(c);
    }
    return text;
  }
  return decodedString(body, start, end);
}

function decodedString(body: Buffer, start: number, end: number): string | undefined {
  const raw = body.toString('utf8', start, end);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}

/** Index of the quote closing the string whose text starts at `i`; -1 when it is not closed. */
function stringEnd(body: Buffer, i: number): number {
  for (; i < body.length; i++) {
    const c = body[i];
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return -1;
}

/** Index just past the object or array opening at `i`; -1 when it is not closed. */
function nestedEnd(body: Buffer, i: number): number {
  let depth = 0;
  for (; i < body.length; i++) {
    const c = body[i];
    if (c === QUOTE) {
      i = stringEnd(body, i + 1);
      if (i < 0) return -1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
  }
  return -1;
}

/** Index just past a number, true, false or null starting at `i`. */
function primitiveEnd(body: Buffer, i: number): number {
  while (i < body.length && body[i] !== COMMA && body[i] !== CLOSE_BRACE && !isSpace(body[i])) i++;
  return i;
}

function skipSpace(body: Buffer, i: number): number {
  while (i < body.length && isSpace(body[i])) i++;
  return i;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
