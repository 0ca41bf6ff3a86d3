import { randomBytes } from 'node:crypto';
import {
  encodeWorkspaceEntry,
  WorkspaceAction,
  WorkspaceAuditRecord,
  WorkspaceKind,
  workspaceRecordKey,
} from '@switchyard/contracts';
import { checkResource, Destination, destinationProblems, Source, writeKeysOf } from '@switchyard/config';
import type { TokenHolder } from '@switchyard/service';
import {
  keepMaskedSecrets,
  mapDestinationSecrets,
  maskSecret,
  SecretCipher,
  StoredResource,
  WorkspaceState,
} from '@switchyard/workspace';
import { conflict, invalid, notFound, staleRevision, unavailable } from './workspace-errors';

type Plain = Record<string, unknown>;

/** The resources the API reads, with their revisions: the workspace topic's, or a mounted file's. */
export type WorkspaceResources = Pick<WorkspaceState, 'source' | 'destination' | 'config'>;

/** One change to the workspace topic and its audit record, written together or not at all. */
export interface WorkspaceChange {
  key: string;
  /** null deletes (a tombstone). */
  value: Buffer | null;
  audit: WorkspaceAuditRecord;
}

/** The workspace topic as the management API sees it. */
export interface WorkspaceLog {
  /**
   * Resolves once the broker acknowledged both records (one transaction) and the local state has
   * applied the change; rejects when they could not be written.
   */
  append(change: WorkspaceChange): Promise<void>;
  /** Resolves once the local state has applied every record written before the call. */
  caughtUp(): Promise<void>;
}

/** A resource as the API answers it: the file's fields, secrets masked, and its revision (the ETag). */
export interface ResourceView {
  revision: number;
  resource: Plain;
}

/**
 * How long a write waits for this console's copy of the topic to reach the topic's end before it
 * answers 503. Nothing is written by then, so the caller can safely try again; without a bound a
 * copy that cannot read (its consumer rejoining its group, a broker away) holds every write.
 */
export const READ_TO_END_TIMEOUT_MS = 30_000;

/** Generated write keys hold 192 random bits. */
export const generateWriteKey = (): string => `sk_${randomBytes(24).toString('base64url')}`;

/**
 * The management API's use cases over the workspace topic. Every write checks the If-Match
 * revision against the caught-up state, validates the whole resulting resource with the rules
 * the workspace file obeys, seals its secrets, and writes the record and its audit record in one
 * transaction. Writes of one console are serialised, so two requests cannot both pass the
 * revision check of the same state.
 */
export class WorkspaceAdmin {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly state: WorkspaceResources,
    private readonly log: WorkspaceLog,
    private readonly cipher: SecretCipher | undefined,
    private readonly now: () => Date = () => new Date(),
    private readonly readToEndTimeoutMs = READ_TO_END_TIMEOUT_MS,
  ) {}

  listSources(holder: TokenHolder): ResourceView[] {
    return this.state.config.sources.map((s) => this.sourceView(this.state.source(s.id)!, holder));
  }

  getSource(id: string, holder: TokenHolder): ResourceView {
    const stored = this.state.source(id);
    if (!stored) throw notFound('source', id);
    return this.sourceView(stored, holder);
  }

  listDestinations(): ResourceView[] {
    return this.state.config.destinations.map((d) => this.destinationView(this.state.destination(d.id)!));
  }

  getDestination(id: string): ResourceView {
    const stored = this.state.destination(id);
    if (!stored) throw notFound('destination', id);
    return this.destinationView(stored);
  }

  createSource(body: Plain, actor: TokenHolder): Promise<ResourceView> {
    return this.serialised(async () => {
      const id = String(body.id ?? '');
      if (this.state.source(id)) throw conflict(`source "${id}" already exists`);
      const source = this.checkSource({ ...body, writeKey: body.writeKey ?? generateWriteKey() });
      await this.write('source', 'create', id, undefined, source, actor);
      return this.sourceView(this.state.source(id)!, actor);
    });
  }

  /** Replaces (PUT, `partial` false) or merges into (PATCH, RFC 7396) a source. */
  changeSource(id: string, body: Plain, ifMatch: string | undefined, partial: boolean, actor: TokenHolder) {
    return this.serialised(async () => {
      const stored = this.current('source', id, ifMatch);
      const next = partial ? mergePatch(stored.resource as unknown as Plain, body) : body;
      const source = this.checkSource({ ...next, id });
      await this.write('source', 'update', id, stored, source, actor);
      return this.sourceView(this.state.source(id)!, actor);
    });
  }

  /** Starts a rotation: a new key becomes `writeKey`, the old one stays accepted as `previousWriteKey`. */
  rotateWriteKey(id: string, ifMatch: string | undefined, newKey: string | undefined, actor: TokenHolder) {
    return this.serialised(async () => {
      const stored = this.current('source', id, ifMatch) as StoredResource<Source>;
      if (stored.resource.previousWriteKey)
        throw conflict(`source "${id}" is already rotating: retire its previous key first`);
      const source = this.checkSource({
        ...stored.resource,
        writeKey: newKey ?? generateWriteKey(),
        previousWriteKey: stored.resource.writeKey,
      });
      await this.write('source', 'update', id, stored, source, actor);
      return this.sourceView(this.state.source(id)!, actor);
    });
  }

  /** Ends a rotation: the previous key stops working. */
  retireWriteKey(id: string, ifMatch: string | undefined, actor: TokenHolder) {
    return this.serialised(async () => {
      const stored = this.current('source', id, ifMatch) as StoredResource<Source>;
      if (!stored.resource.previousWriteKey) throw conflict(`source "${id}" has no previous key to retire`);
      const { previousWriteKey: _retired, ...rest } = stored.resource;
      await this.write('source', 'update', id, stored, this.checkSource(rest), actor);
      return this.sourceView(this.state.source(id)!, actor);
    });
  }

  deleteSource(id: string, ifMatch: string | undefined, actor: TokenHolder): Promise<void> {
    return this.serialised(async () => {
      const stored = this.current('source', id, ifMatch);
      const users = this.state.config.destinations.filter((d) => d.sources.includes(id)).map((d) => d.id);
      if (users.length > 0)
        throw conflict(
          `source "${id}" is connected to destination(s) ${users.join(', ')}: disconnect it first`,
        );
      await this.write('source', 'delete', id, stored, undefined, actor);
    });
  }

  createDestination(body: Plain, actor: TokenHolder): Promise<ResourceView> {
    return this.serialised(async () => {
      const id = String(body.id ?? '');
      if (this.state.destination(id)) throw conflict(`destination "${id}" already exists`);
      const destination = this.checkDestination(body);
      await this.write('destination', 'create', id, undefined, destination, actor);
      return this.destinationView(this.state.destination(id)!);
    });
  }

  changeDestination(
    id: string,
    body: Plain,
    ifMatch: string | undefined,
    partial: boolean,
    actor: TokenHolder,
  ) {
    return this.serialised(async () => {
      const stored = this.current('destination', id, ifMatch);
      const storedPlain = stored.resource as unknown as Plain;
      const next = keepMaskedSecrets(partial ? mergePatch(storedPlain, body) : body, storedPlain);
      const destination = this.checkDestination({ ...next, id });
      await this.write('destination', 'update', id, stored, destination, actor);
      return this.destinationView(this.state.destination(id)!);
    });
  }

  deleteDestination(id: string, ifMatch: string | undefined, actor: TokenHolder): Promise<void> {
    return this.serialised(async () => {
      const stored = this.current('destination', id, ifMatch);
      await this.write('destination', 'delete', id, stored, undefined, actor);
    });
  }

  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      await this.readToEnd();
      return work();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A write is checked against the whole topic: one that cannot be read to its end cannot be written either. */
  private async readToEnd(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`it could not be read to its end within ${this.readToEndTimeoutMs} ms`)),
        this.readToEndTimeoutMs,
      );
    });
    try {
      await Promise.race([this.log.caughtUp(), late]);
    } catch (error) {
      throw unavailable((error as Error).message);
    } finally {
      clearTimeout(timer);
    }
  }

  private current(
    kind: WorkspaceKind,
    id: string,
    ifMatch: string | undefined,
  ): StoredResource<Source | Destination> {
    const stored = kind === 'source' ? this.state.source(id) : this.state.destination(id);
    if (!stored) throw notFound(kind, id);
    if (ifMatch !== undefined && !etagMatches(ifMatch, stored.revision))
      throw staleRevision(kind, id, stored.revision);
    return stored;
  }

  private checkSource(plain: Plain): Plain {
    const check = checkResource(Source, plain);
    if (!check.value) throw invalid(check.problems);
    const others = this.state.config.sources.filter((s) => s.id !== check.value.id);
    const taken = new Set(others.flatMap(writeKeysOf));
    if (writeKeysOf(check.value).some((key) => taken.has(key)))
      throw invalid(['writeKey: already used by another source']);
    return plain;
  }

  /** Every problem at once: the fields' own rules, and the cross-field rules wherever the shape allows them. */
  private checkDestination(plain: Plain): Plain {
    const check = checkResource(Destination, plain);
    const sourceIds = new Set(this.state.config.sources.map((s) => s.id));
    const crossField = hasDestinationShape(plain) ? destinationProblems(plain, sourceIds) : [];
    const problems = [...check.problems, ...crossField];
    if (problems.length > 0) throw invalid(problems);
    return plain;
  }

  private async write(
    kind: WorkspaceKind,
    action: WorkspaceAction,
    id: string,
    before: StoredResource<Source | Destination> | undefined,
    after: Plain | undefined,
    actor: TokenHolder,
  ): Promise<void> {
    const revision = (before?.revision ?? 0) + (after ? 1 : 0);
    const at = this.now().toISOString();
    const stored = after && (kind === 'destination' ? this.sealed(after) : after);
    const audit: WorkspaceAuditRecord = {
      at,
      actor: actor.name,
      action,
      kind,
      id,
      revision,
      ...(before ? { before: this.masked(kind, before.resource as unknown as Plain) } : {}),
      ...(after ? { after: this.masked(kind, after) } : {}),
    };
    const value = stored
      ? encodeWorkspaceEntry({ revision, changedAt: at, changedBy: actor.name, resource: stored })
      : null;
    try {
      await this.log.append({ key: workspaceRecordKey(kind, id), value, audit });
    } catch (error) {
      throw unavailable((error as Error).message);
    }
  }

  private sealed(destination: Plain): Plain {
    const cipher = this.cipher;
    return mapDestinationSecrets(destination, (secret) => {
      if (!cipher) throw invalid(['settings: secrets need WORKSPACE_ENCRYPTION_KEYS set on the console']);
      return cipher.seal(secret);
    });
  }

  private masked(kind: WorkspaceKind, resource: Plain): Plain {
    return kind === 'destination' ? mapDestinationSecrets(resource, maskSecret) : maskSource(resource);
  }

  private sourceView(stored: StoredResource<Source>, holder: TokenHolder): ResourceView {
    const plain = { ...stored.resource } as Plain;
    return { revision: stored.revision, resource: holder.role === 'admin' ? plain : maskSource(plain) };
  }

  private destinationView(stored: StoredResource<Destination>): ResourceView {
    return {
      revision: stored.revision,
      resource: mapDestinationSecrets({ ...stored.resource } as unknown as Plain, maskSecret),
    };
  }
}

/** Write keys are masked in audit records and for viewers: they let anyone send data as the source. */
function maskSource(source: Plain): Plain {
  const masked = { ...source };
  for (const field of ['writeKey', 'previousWriteKey'])
    if (typeof masked[field] === 'string') masked[field] = maskSecret(masked[field] as string);
  return masked;
}

/** `If-Match: "3"`, `W/"3"` or a list of them; `*` matches any revision. */
export function etagMatches(ifMatch: string, revision: number): boolean {
  return ifMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === `"${revision}"`);
}

/** RFC 7396 JSON merge patch: objects merge, null removes a field, anything else replaces. */
export function mergePatch(target: Plain, patch: Plain): Plain {
  const result: Plain = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else if (isPlain(value) && isPlain(result[key])) result[key] = mergePatch(result[key] as Plain, value);
    else result[key] = value;
  }
  return result;
}

/** Enough of a destination's shape for its cross-field rules to read, even when some field breaks its own rule. */
function hasDestinationShape(plain: Plain): plain is Plain & Destination {
  const settings = plain.settings as Plain | undefined;
  return (
    Array.isArray(plain.sources) &&
    plain.sources.every((s) => typeof s === 'string') &&
    isPlain(settings) &&
    Array.isArray(settings.webhooks) &&
    settings.webhooks.every((w) => isPlain(w) && (w.headers === undefined || isPlain(w.headers)))
  );
}

const isPlain = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
