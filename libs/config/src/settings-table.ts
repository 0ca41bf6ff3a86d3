import { ConfigError } from './settings';

/** A value read from its environment variable, or the rule the raw text broke (e.g. "must be true or false"). */
export type Parsed<T> = { value: T } | { problem: string };

/**
 * One row of a settings table: the environment variable, how to read it, its default and bounds,
 * and one line for the reference. The row is the only place a setting is written down: it drives
 * parsing, validation, the error text and `docs/configuration.md`.
 */
export interface Setting<T> {
  readonly env: string;
  /** The type as the reference shows it: "integer", "number", "integer list", "boolean", "string". */
  readonly type: string;
  /** Used when the variable is unset or empty; `undefined` means the setting stays unset. */
  readonly default: T;
  /** The allowed values as the reference shows them, e.g. "1024 – 1048576"; empty when any value of the type goes. */
  readonly bounds: string;
  readonly description: string;
  /** Never echoed in an error message (tokens, passwords). */
  readonly secret?: boolean;
  /** Reads a non-empty raw value. */
  parse(raw: string): Parsed<T>;
}

export type SettingsRows = Record<string, Setting<unknown>>;

type ValueOf<S> = S extends Setting<infer T> ? T : never;
/** Fields that may stay unset (their default is undefined). */
type UnsetKeys<R extends SettingsRows> = {
  [K in keyof R]: undefined extends ValueOf<R[K]> ? K : never;
}[keyof R];

/** The values a set of rows yields, by field name; a setting without a default is an optional field. */
export type SettingsOf<R extends SettingsRows> = { [K in Exclude<keyof R, UnsetKeys<R>>]: ValueOf<R[K]> } & {
  [K in UnsetKeys<R>]?: ValueOf<R[K]>;
};

/** Settings that belong together (Kafka connection, topics, one service's own), and the rules that span their rows. */
export interface SettingsTable<R extends SettingsRows = SettingsRows> {
  /** Heading in the reference, e.g. "Kafka connection". */
  readonly title: string;
  /** What the table is about, one line for the reference. */
  readonly summary: string;
  readonly rows: R;
  /** Problems between rows, each naming the variables involved; run only once every row has read well. */
  checks?(values: SettingsOf<R>): string[];
}

/** Declares a table, keeping its row types so the values it yields are typed. */
export function settingsTable<R extends SettingsRows>(table: SettingsTable<R>): SettingsTable<R> {
  return table;
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;
type ValuesOfTable<T> = T extends { readonly rows: infer R extends SettingsRows } ? SettingsOf<R> : never;

/** The values several tables yield together: a service's settings. */
export type SettingsOfTables<Ts extends readonly SettingsTable[]> = UnionToIntersection<
  ValuesOfTable<Ts[number]>
>;

/**
 * A class whose instances hold the values of `tables`, so a service can inject its settings by
 * class (Nest uses the class as the provider token). Its fields are declared by the tables alone.
 */
export function settingsClass<const Ts extends readonly SettingsTable[]>(
  ..._tables: Ts
): new () => SettingsOfTables<Ts> {
  return class {} as new () => SettingsOfTables<Ts>;
}

/** Reads one row: its default when unset or empty, else the parsed value or the problem naming the variable. */
export function readSetting<T>(row: Setting<T>, env: NodeJS.ProcessEnv): Parsed<T> {
  const raw = env[row.env];
  if (raw === undefined || raw === '') {
    return { value: row.default };
  }
  const parsed = row.parse(raw);
  if ('value' in parsed) return parsed;
  const shown = row.secret ? '' : ` (got "${raw}")`;
  return { problem: `${row.env} ${parsed.problem}${shown}` };
}

function readTable(table: SettingsTable, env: NodeJS.ProcessEnv): { values: object; problems: string[] } {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [field, row] of Object.entries(table.rows)) {
    const parsed = readSetting(row, env);
    if ('value' in parsed) values[field] = parsed.value;
    else problems.push(parsed.problem);
  }
  if (problems.length === 0 && table.checks) problems.push(...table.checks(values as never));
  return { values, problems };
}

/**
 * Reads the environment through every row of `tables` into an instance of `cls`. Throws one
 * ConfigError listing every problem, so an operator fixes them all in one go; `what` names the
 * settings in its first line ("invalid ingest settings").
 */
export function loadSettings<const Ts extends readonly SettingsTable[], S extends SettingsOfTables<Ts>>(
  cls: new () => S,
  tables: Ts,
  env: NodeJS.ProcessEnv,
  what: string,
): S {
  const settings = new cls();
  const problems: string[] = [];
  for (const table of tables) {
    const read = readTable(table, env);
    Object.assign(settings as object, read.values);
    problems.push(...read.problems);
  }
  if (problems.length > 0) throw new ConfigError(`invalid ${what}:\n  - ${problems.join('\n  - ')}`);
  return settings;
}

/** A value as it would be written in the environment (lists comma-separated); undefined stays undefined. */
export function settingText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(',') : String(value);
}
