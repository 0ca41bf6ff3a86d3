/**
 * ISO 8601 date-times as Segment SDKs send them: with or without fractional seconds, `Z` or an
 * offset with or without a colon (analytics-go v1/v2 send `2006-01-02T15:04:05-0700`).
 */
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Parses an ISO 8601 date-time and returns it as UTC with milliseconds, or undefined if invalid. */
export function normaliseTimestamp(input: unknown): string | undefined {
  if (typeof input !== 'string') return undefined;
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
  const utc =
    Date.UTC(Number(y), month - 1, day, hour, minute, Math.min(second, 59), millis) - offsetMinutes * 60_000;
  const date = new Date(utc);
  // Date.UTC rolls 31 February over into March; a calendar-invalid date is invalid input.
  const local = new Date(utc + offsetMinutes * 60_000);
  if (local.getUTCDate() !== day) return undefined;
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
