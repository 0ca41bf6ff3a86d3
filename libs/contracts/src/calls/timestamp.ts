/**
 * ISO 8601 date-times as Segment SDKs send them: with or without fractional seconds, `Z` or an
 * offset with or without a colon (analytics-go v1/v2 send `2006-01-02T15:04:05-0700`).
 */
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Parses an ISO 8601 date-time and returns it as UTC with milliseconds, or undefined if invalid. */
export function normaliseTimestamp(input: unknown): string | undefined {
  if (typeof input !== 'string') return undefined;
  // Every call is checked at each service it passes, nearly always in the form ingest stamped:
  // that form is its own answer once its fields are in range, with no parse and no Date.
  return isCanonical(input) ? input : parseIso8601(input);
}

/** The form this returns (and ingest stamps): `2015-01-02T03:04:05.123Z`, UTC with milliseconds. */
const CANONICAL_SHAPE = '0000-00-00T00:00:00.000Z';
const ZERO = 0x30;
const NINE = 0x39;

/** Whether `input` has the canonical shape, a real calendar date and a time without a leap second. */
function isCanonical(input: string): boolean {
  if (input.length !== CANONICAL_SHAPE.length) return false;
  for (let i = 0; i < CANONICAL_SHAPE.length; i++) {
    const code = input.charCodeAt(i);
    const expected = CANONICAL_SHAPE.charCodeAt(i);
    if (expected === ZERO ? code < ZERO || code > NINE : code !== expected) return false;
  }
  const year = digitsAt(input, 0, 4);
  const month = digitsAt(input, 5, 2);
  const day = digitsAt(input, 8, 2);
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    digitsAt(input, 11, 2) <= 23 &&
    digitsAt(input, 14, 2) <= 59 &&
    digitsAt(input, 17, 2) <= 59
  );
}

/** The number written by the `count` digits of `text` from `at` (already checked to be digits). */
function digitsAt(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) value = value * 10 + text.charCodeAt(i) - ZERO;
  return value;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function parseIso8601(input: string): string | undefined {
  const m = ISO_8601.exec(input.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = '00', frac = '', zone = 'Z'] = m;
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    return undefined;
  const millis = Number(frac.padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
  }
  // setUTCFullYear, unlike Date.UTC, takes years 0-99 as written rather than as 1900-1999.
  const local = new Date(0);
  local.setUTCFullYear(Number(y), month - 1, day);
  local.setUTCHours(hour, minute, Math.min(second, 59), millis);
  // A calendar-invalid date (31 February) rolls over into the next month: invalid input.
  if (local.getUTCDate() !== day) return undefined;
  const date = new Date(local.getTime() - offsetMinutes * 60_000);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
