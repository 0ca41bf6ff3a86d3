import {
  decodeWorkspaceEntry,
  parseWorkspaceRecordKey,
  WorkspaceEntry,
  WorkspaceKind,
} from '@switchyard/contracts';
import { checkResource, Destination, Source, WorkspaceConfig } from '@switchyard/config';
import { SecretCipher } from './secret-cipher';
import { mapDestinationSecrets } from './secret-fields';

/** A resource as the workspace topic last gave it, secrets opened. */
export interface StoredResource<T> {
  revision: number;
  changedAt: string;
  changedBy: string;
  resource: T;
}

export type ApplyOutcome = { applied: 'stored' | 'deleted' } | { skipped: string };

/**
 * The workspace as the records of the workspace topic build it, applied in offset order. A
 * record that cannot be read (bad key, bad JSON, a resource that breaks the rules, a secret that
 * does not open) is skipped with its reason, and the resource keeps its previous state: one bad
 * record never stops a service from routing.
 */
export class WorkspaceState {
  private readonly sources = new Map<string, StoredResource<Source>>();
  private readonly destinations = new Map<string, StoredResource<Destination>>();

  constructor(readonly cipher: SecretCipher | undefined) {}

  apply(key: string, value: Buffer | null): ApplyOutcome {
    const parsed = parseWorkspaceRecordKey(key);
    if (!parsed) return { skipped: `key "${key.slice(0, 80)}" is not <source|destination>:<id>` };
    const table = this.table(parsed.kind);
    if (value === null) {
      table.delete(parsed.id);
      return { applied: 'deleted' };
    }
    try {
      const entry = decodeWorkspaceEntry(value);
      table.set(parsed.id, { ...entry, resource: this.resourceOf(parsed.kind, parsed.id, entry) });
      return { applied: 'stored' };
    } catch (error) {
      return { skipped: (error as Error).message };
    }
  }

  source(id: string): StoredResource<Source> | undefined {
    return this.sources.get(id);
  }

  destination(id: string): StoredResource<Destination> | undefined {
    return this.destinations.get(id);
  }

  get config(): WorkspaceConfig {
    const config = new WorkspaceConfig();
    config.sources = [...this.sources.values()].map((s) => s.resource);
    config.destinations = [...this.destinations.values()].map((d) => d.resource);
    return config;
  }

  private table(kind: WorkspaceKind): Map<string, StoredResource<Source | Destination>> {
    return kind === 'source' ? this.sources : this.destinations;
  }

  private resourceOf(kind: WorkspaceKind, id: string, entry: WorkspaceEntry): Source | Destination {
    const plain =
      kind === 'destination'
        ? mapDestinationSecrets(entry.resource, (sealed) => this.open(sealed))
        : entry.resource;
    const check = kind === 'source' ? checkResource(Source, plain) : checkResource(Destination, plain);
    if (!check.value) throw new Error(`${kind} breaks the rules: ${check.problems.join('; ')}`);
    if (check.value.id !== id)
      throw new Error(`record key names "${id}" but the ${kind} is "${check.value.id}"`);
    return check.value;
  }

  private open(sealed: string): string {
    if (!this.cipher) throw new Error('the record holds sealed secrets but no encryption key is configured');
    return this.cipher.open(sealed);
  }
}
