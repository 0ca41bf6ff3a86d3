import { readFileSync, Stats, statSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Logger } from 'pino';
import { ConfigError } from './settings';
import { checkWorkspace, Destination, Source, WorkspaceConfig, writeKeysOf } from './workspace-config';
import {
  countWorkspaceReload,
  initialiseWorkspaceMetrics,
  reportLiveWorkspace,
  workspaceVersion,
} from './workspace-metrics';

/** Reads, parses and validates a workspace configuration file. Throws ConfigError naming every problem. */
export function loadWorkspaceConfig(path: string): WorkspaceConfig {
  return loadWorkspace(path).config;
}

/** A validated configuration and the version of the file it came from. */
function loadWorkspace(path: string): { config: WorkspaceConfig; version: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read workspace configuration ${path}: ${(error as Error).message}`);
  }
  let plain: unknown;
  try {
    plain = extname(path) === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError(
      `workspace configuration ${path} is not valid ${extname(path) === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message}`,
    );
  }
  const check = checkWorkspace(plain);
  if (!check.value) {
    throw new ConfigError(`invalid workspace configuration ${path}:\n  - ${check.problems.join('\n  - ')}`);
  }
  const config = check.value;
  return { config, version: workspaceVersion(text) };
}

/** Indexes over one loaded configuration, built once per load rather than per call. */
class WorkspaceIndex {
  readonly sourcesByWriteKey: Map<string, Source>;
  readonly sourcesById: Map<string, Source>;
  readonly destinationsById: Map<string, Destination>;
  readonly destinationsBySource: Map<string, Destination[]>;

  readonly config: WorkspaceConfig;
  readonly version: string;

  constructor({ config, version }: { config: WorkspaceConfig; version: string }) {
    this.config = config;
    this.version = version;
    this.sourcesByWriteKey = new Map(
      config.sources.flatMap((s) => writeKeysOf(s).map((key) => [key, s] as const)),
    );
    this.sourcesById = new Map(config.sources.map((s) => [s.id, s]));
    this.destinationsById = new Map(config.destinations.map((d) => [d.id, d]));
    this.destinationsBySource = new Map();
    for (const d of config.destinations) {
      for (const s of d.sources)
        this.destinationsBySource.set(s, [...(this.destinationsBySource.get(s) ?? []), d]);
    }
  }
}

export type WorkspaceChangeListener = (config: WorkspaceConfig) => void;

/**
 * The workspace a service routes by, kept live by its subclass (the workspace topic, or a
 * mounted file). Lookups read indexes built once per change, not per call.
 */
export abstract class Workspace {
  private index: WorkspaceIndex;
  private readonly listeners = new Set<WorkspaceChangeListener>();

  protected constructor(config: WorkspaceConfig, version: string) {
    this.index = new WorkspaceIndex({ config, version });
    initialiseWorkspaceMetrics();
    reportLiveWorkspace(version);
  }

  get config(): WorkspaceConfig {
    return this.index.config;
  }

  /** The live configuration's version, the same on every instance that applied the same workspace. */
  get version(): string {
    return this.index.version;
  }

  sourceByWriteKey(writeKey: string): Source | undefined {
    return this.index.sourcesByWriteKey.get(writeKey);
  }

  source(id: string): Source | undefined {
    return this.index.sourcesById.get(id);
  }

  destination(id: string): Destination | undefined {
    return this.index.destinationsById.get(id);
  }

  /** Every destination connected to the source, enabled or not. */
  destinationsOf(sourceId: string): readonly Destination[] {
    return this.index.destinationsBySource.get(sourceId) ?? [];
  }

  onChange(listener: WorkspaceChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Makes `config` the live workspace and tells the listeners. */
  protected replace(config: WorkspaceConfig, version: string): void {
    this.index = new WorkspaceIndex({ config, version });
    reportLiveWorkspace(version);
    for (const listener of this.listeners) listener(config);
  }

  close(): void {
    this.listeners.clear();
  }
}

/**
 * The workspace from a mounted file. Loads at start (a bad file throws, stopping start-up),
 * then re-reads the file when it changes: a valid edit replaces the configuration, an invalid
 * one is logged and refused, and the previous configuration stays live.
 */
export class WorkspaceConfigStore extends Workspace {
  private poller: NodeJS.Timeout | undefined;
  /** The file version last read (valid or not), taken before reading so an edit during the read is seen later. */
  private seen: FileVersion;

  constructor(
    readonly path: string,
    private readonly logger: Logger,
    private readonly pollIntervalMs = 500,
  ) {
    const seen = versionOf(path);
    const { config, version } = loadWorkspace(path);
    super(config, version);
    this.seen = seen;
  }

  /**
   * Polls the file: fs.watch misses editors' atomic rename-over, polling does not. Each poll is
   * compared with the version last read, not with the previous poll (as fs.watchFile does): an
   * edit made between the load and a watcher's first look would otherwise become its baseline
   * and never be applied.
   */
  watch(): void {
    if (this.poller) return;
    this.poller = setInterval(() => {
      const current = versionOf(this.path);
      if (sameVersion(current, this.seen)) return;
      this.seen = current;
      this.reload();
    }, this.pollIntervalMs);
    this.poller.unref();
  }

  /** Re-reads the file now. Returns false (and keeps the current configuration) when it is invalid. */
  reload(): boolean {
    let loaded: { config: WorkspaceConfig; version: string };
    try {
      loaded = loadWorkspace(this.path);
    } catch (error) {
      countWorkspaceReload('refused');
      this.logger.error(
        { path: this.path, reason: (error as Error).message },
        'workspace configuration change refused; previous configuration stays live',
      );
      return false;
    }
    this.logger.info(
      {
        path: this.path,
        version: loaded.version,
        sources: loaded.config.sources.length,
        destinations: loaded.config.destinations.length,
      },
      'workspace configuration reloaded',
    );
    countWorkspaceReload('applied');
    this.replace(loaded.config, loaded.version);
    return true;
  }

  override close(): void {
    clearInterval(this.poller);
    this.poller = undefined;
    super.close();
  }
}

type FileVersion = Pick<Stats, 'mtimeMs' | 'size' | 'ino'>;

function versionOf(path: string): FileVersion {
  try {
    return statSync(path);
  } catch {
    return { mtimeMs: 0, size: 0, ino: 0 };
  }
}

function sameVersion(a: FileVersion, b: FileVersion): boolean {
  return a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;
}
