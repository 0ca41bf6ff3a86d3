import type { Parsed, Setting } from './settings-table';

/** What every row states about itself. */
interface RowText {
  env: string;
  description: string;
}

interface Range {
  min: number;
  max: number;
}

const TRUE = /^(1|true|yes|on)$/i;
const FALSE = /^(0|false|no|off)$/i;

function inRange(value: number, { min, max }: Range): boolean {
  return value >= min && value <= max;
}

function wholeNumber(raw: string, range: Range): number | undefined {
  const value = Number(raw.trim());
  return raw.trim() !== '' && Number.isInteger(value) && inRange(value, range) ? value : undefined;
}

/** A whole number from `min` to `max`; a `default` of undefined leaves it unset. */
export function integer(row: RowText & Range & { default: number }): Setting<number>;
export function integer(row: RowText & Range & { default: undefined }): Setting<number | undefined>;
export function integer(row: RowText & Range & { default: number | undefined }): Setting<number | undefined> {
  const problem = `must be a whole number from ${row.min} to ${row.max}`;
  return {
    ...row,
    type: 'integer',
    bounds: `${row.min} – ${row.max}`,
    parse: (raw) => {
      const value = wholeNumber(raw, row);
      return value === undefined ? { problem } : { value };
    },
  };
}

/** A number (fractions allowed) from `min` to `max`. */
export function decimal(row: RowText & Range & { default: number }): Setting<number> {
  const problem = `must be a number from ${row.min} to ${row.max}`;
  return {
    ...row,
    type: 'number',
    bounds: `${row.min} – ${row.max}`,
    parse: (raw) => {
      const value = Number(raw.trim());
      return raw.trim() !== '' && inRange(value, row) ? { value } : { problem };
    },
  };
}

/** Comma-separated whole numbers, `minItems` to `maxItems` of them, each from `min` to `max`. */
export function integerList(
  row: RowText & Range & { default: number[]; minItems: number; maxItems: number },
): Setting<number[]> {
  const problem = `must be a comma-separated list of ${row.minItems} to ${row.maxItems} whole numbers, each from ${row.min} to ${row.max}`;
  return {
    ...row,
    type: 'integer list',
    bounds: `${row.minItems} – ${row.maxItems} items, each ${row.min} – ${row.max}`,
    parse: (raw) => {
      const values = raw.split(',').map((part) => wholeNumber(part, row));
      const count = values.length >= row.minItems && values.length <= row.maxItems;
      return count && values.every((v) => v !== undefined) ? { value: values as number[] } : { problem };
    },
  };
}

/** true or false (also 1/0, yes/no, on/off). */
export function flag(row: RowText & { default: boolean }): Setting<boolean> {
  return {
    ...row,
    type: 'boolean',
    bounds: '',
    parse: (raw) => {
      if (TRUE.test(raw.trim())) return { value: true };
      if (FALSE.test(raw.trim())) return { value: false };
      return { problem: 'must be true or false' };
    },
  };
}

/** One of a fixed list of words; a `default` of undefined leaves it unset. */
export function oneOf<const V extends string>(
  row: RowText & { values: readonly V[]; default: V },
): Setting<V>;
export function oneOf<const V extends string>(
  row: RowText & { values: readonly V[]; default: undefined },
): Setting<V | undefined>;
export function oneOf<const V extends string>(
  row: RowText & { values: readonly V[]; default: V | undefined },
): Setting<V | undefined> {
  const { values, ...text } = row;
  return {
    ...text,
    type: 'string',
    bounds: values.join(', '),
    parse: (raw) =>
      (values as readonly string[]).includes(raw)
        ? { value: raw as V }
        : { problem: `must be one of: ${values.join(', ')}` },
  };
}

interface TextRule {
  /** What a value must satisfy; any text goes without it. */
  accepts?: RegExp | ((value: string) => boolean);
  /** The rule as the error and the reference state it, e.g. "must be an HTTP token of 1-64 characters". */
  rule?: string;
  /** Applied before the rule, e.g. dropping a trailing slash. */
  normalize?: (raw: string) => string;
  secret?: boolean;
}

/** The rule as the reference's "Allowed" column shows it: "must be an http(s) URL" → "an http(s) URL". */
function allowed(rule: string | undefined): string {
  return rule?.replace(/^must (be )?/, '') ?? '';
}

function parseText(row: TextRule): (raw: string) => Parsed<string> {
  return (raw) => {
    const value = row.normalize ? row.normalize(raw) : raw;
    const { accepts } = row;
    const ok = !accepts || (typeof accepts === 'function' ? accepts(value) : accepts.test(value));
    return ok ? { value } : { problem: row.rule ?? 'is not valid' };
  };
}

/** Text, checked by `accepts` when given; a `default` of undefined leaves it unset. */
export function text(row: RowText & TextRule & { default: string }): Setting<string>;
export function text(row: RowText & TextRule & { default: undefined }): Setting<string | undefined>;
export function text(row: RowText & TextRule & { default: string | undefined }): Setting<string | undefined> {
  const { accepts: _accepts, rule, normalize: _normalize, ...rest } = row;
  return { ...rest, type: 'string', bounds: allowed(rule), parse: parseText(row) };
}

/** The service's HTTP port; each service has its own default. */
export function port(defaultPort: number): Setting<number> {
  return integer({
    env: 'PORT',
    default: defaultPort,
    min: 0,
    max: 65535,
    description: 'HTTP port of the API, health and metrics endpoints (0: any free port).',
  });
}
