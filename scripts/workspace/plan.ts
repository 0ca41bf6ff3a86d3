import { isMask, mapDestinationSecrets, maskSecret } from '@switchyard/workspace';

type Plain = Record<string, unknown>;

export type ResourceKind = 'source' | 'destination';

/** A resource as the management API answered it (secrets masked) and the ETag it came with. */
export interface CurrentResource {
  resource: Plain;
  etag: string;
}

/** The workspace as read from the console before applying. */
export interface CurrentWorkspace {
  sources: CurrentResource[];
  destinations: CurrentResource[];
}

/** The workspace as the file states it, secrets in clear, already validated. */
export interface DesiredWorkspace {
  sources: Plain[];
  destinations: Plain[];
}

/** One field that differs, with both sides printable: secrets already masked. Absent side: undefined. */
export interface FieldChange {
  path: string;
  before?: string;
  after?: string;
  /** Set when a secret is sent although the masks show no difference. */
  resent?: true;
}

interface StepBase {
  kind: ResourceKind;
  id: string;
}

/** One call to the management API. `body` holds secrets in clear: it is sent, never printed. */
export type PlanStep =
  | (StepBase & { action: 'create'; body: Plain; fields: FieldChange[] })
  | (StepBase & { action: 'update'; body: Plain; etag: string; fields: FieldChange[] })
  | (StepBase & { action: 'delete'; etag: string });

/** A secret that could not be compared: the stored one's mask equals the file's. */
export interface UnverifiedSecret {
  kind: ResourceKind;
  id: string;
  path: string;
}

export interface Plan {
  /** In the order they must be applied. */
  steps: PlanStep[];
  unchanged: number;
  unverifiedSecrets: UnverifiedSecret[];
  /** Whether secrets that masks cannot tell apart were sent anyway. */
  resendSecrets: boolean;
}

export interface PlanOptions {
  /** Send every secret the file holds, even where the masks match. */
  resendSecrets?: boolean;
}

const SOURCE_KEY_FIELDS = ['writeKey', 'previousWriteKey'];

/**
 * What applying `desired` to `current` takes. The file is the whole truth: a resource it does
 * not name is deleted, a field it leaves out is removed — except a source's write keys, which
 * are kept as stored when the file names no `writeKey` (they are generated and rotated in the
 * console, and dropping one would lock out the apps that send with it).
 *
 * The order keeps every intermediate workspace valid: sources are created and updated before
 * destinations connect to them; destinations are deleted or disconnected before the sources they
 * used are deleted.
 */
export function planApply(
  current: CurrentWorkspace,
  desired: DesiredWorkspace,
  options: PlanOptions = {},
): Plan {
  const resendSecrets = options.resendSecrets ?? false;
  const unverifiedSecrets: UnverifiedSecret[] = [];
  const compare = (kind: ResourceKind) => (want: Plain, have: CurrentResource | undefined) => {
    const id = String(want.id);
    const body = kind === 'source' ? withKeptWriteKeys(want, have?.resource) : want;
    if (!have) return { kind, id, action: 'create' as const, body, fields: createdFields(body, kind) };
    const outcome = diff(body, have.resource, kind, resendSecrets);
    unverifiedSecrets.push(...outcome.unverified.map((path) => ({ kind, id, path })));
    if (outcome.fields.length === 0) return undefined;
    return { kind, id, action: 'update' as const, body, etag: have.etag, fields: outcome.fields };
  };
  const sources = desired.sources.map((s) => compare('source')(s, byId(current.sources, s.id)));
  const destinations = desired.destinations.map((d) =>
    compare('destination')(d, byId(current.destinations, d.id)),
  );
  const steps: PlanStep[] = [
    ...ofAction(sources, 'create'),
    ...ofAction(sources, 'update'),
    ...deletions('destination', current.destinations, desired.destinations),
    ...ofAction(destinations, 'create'),
    ...ofAction(destinations, 'update'),
    ...deletions('source', current.sources, desired.sources),
  ];
  const unchanged = [...sources, ...destinations].filter((step) => step === undefined).length;
  return { steps, unchanged, unverifiedSecrets, resendSecrets };
}

const byId = (resources: CurrentResource[], id: unknown) => resources.find((r) => r.resource.id === id);

const ofAction = (steps: (PlanStep | undefined)[], action: PlanStep['action']): PlanStep[] =>
  steps.filter((step): step is PlanStep => step?.action === action);

function deletions(kind: ResourceKind, current: CurrentResource[], named: Plain[]): PlanStep[] {
  const ids = new Set(named.map((r) => r.id));
  return current
    .filter((r) => !ids.has(r.resource.id))
    .map((r) => ({ kind, id: String(r.resource.id), action: 'delete', etag: r.etag }));
}

/** A file source without `writeKey` keeps the stored keys; on create the console generates one. */
function withKeptWriteKeys(source: Plain, stored: Plain | undefined): Plain {
  if (source.writeKey !== undefined || !stored) return source;
  const kept = SOURCE_KEY_FIELDS.filter((field) => stored[field] !== undefined).map((f) => [f, stored[f]]);
  return { ...source, ...Object.fromEntries(kept) };
}

function createdFields(body: Plain, kind: ResourceKind): FieldChange[] {
  const fields = fieldChanges(body, {}, kind).filter((field) => field.path !== 'id');
  const generated = kind === 'source' && body.writeKey === undefined;
  return generated ? [...fields, { path: 'writeKey', after: GENERATED }] : fields;
}

/** Shown for the write key of a source created without one. */
export const GENERATED = 'generated by the console';

/**
 * An update sends the file's whole resource, secrets included, so the store ends up holding
 * exactly the file's secrets. A resource whose fields all match, secrets by their masks, is left
 * alone: its masked secrets are reported as unverified, or re-sent when asked.
 */
function diff(
  want: Plain,
  have: Plain,
  kind: ResourceKind,
  resend: boolean,
): { fields: FieldChange[]; unverified: string[] } {
  const fields = fieldChanges(want, have, kind);
  if (fields.length > 0) return { fields, unverified: [] };
  const unverified = secretPaths(want, kind).filter((path) => isMask(String(flatten(have).get(path))));
  if (!resend) return { fields: [], unverified };
  return { fields: unverified.map((path) => resent(want, path)), unverified: [] };
}

function resent(want: Plain, path: string): FieldChange {
  const shown = maskSecret(String(flatten(want).get(path)));
  return { path, before: shown, after: shown, resent: true };
}

/**
 * Every field whose value differs. A secret is compared in clear when the console answered it in
 * clear (an admin reads write keys), otherwise by its mask: a different mask is a change, an equal
 * mask is taken as no change.
 */
export function fieldChanges(want: Plain, have: Plain, kind: ResourceKind): FieldChange[] {
  const secrets = new Set([...secretPaths(want, kind), ...secretPaths(have, kind)]);
  const wanted = flatten(want);
  const had = flatten(have);
  const paths = [...new Set([...wanted.keys(), ...had.keys()])];
  return paths.flatMap((path) => {
    const after = wanted.get(path);
    const before = had.get(path);
    if (secrets.has(path))
      return secretChange(path, after as string | undefined, before as string | undefined);
    if (JSON.stringify(after) === JSON.stringify(before)) return [];
    return [{ path, before: printable(before), after: printable(after) }];
  });
}

function secretChange(path: string, after: string | undefined, before: string | undefined): FieldChange[] {
  if (secretUnchanged(after, before)) return [];
  const shownBefore = before === undefined || isMask(before) ? before : maskSecret(before);
  return [{ path, before: shownBefore, after: after === undefined ? undefined : maskSecret(after) }];
}

function secretUnchanged(after: string | undefined, before: string | undefined): boolean {
  if (after === undefined || before === undefined) return after === before;
  return isMask(before) ? maskSecret(after) === before : after === before;
}

function secretPaths(resource: Plain, kind: ResourceKind): string[] {
  if (kind === 'source') return SOURCE_KEY_FIELDS.filter((field) => typeof resource[field] === 'string');
  const paths: string[] = [];
  mapDestinationSecrets(resource, (secret, path) => (paths.push(path), secret));
  return paths;
}

/**
 * Leaves by path, in the notation secret fields are named with (`settings.webhooks[0].url`).
 * Arrays of plain values (a destination's `sources`) are one leaf, so a change reads as one line.
 */
function flatten(value: unknown, path = '', into = new Map<string, unknown>()): Map<string, unknown> {
  if (Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null)) {
    value.forEach((item, i) => flatten(item, `${path}[${i}]`, into));
  } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) flatten(child, path ? `${path}.${key}` : key, into);
  } else if (value !== undefined) {
    into.set(path, value);
  }
  return into;
}

const printable = (value: unknown): string | undefined =>
  value === undefined ? undefined : JSON.stringify(value);
