import type { Logger } from 'pino';
import { countSkippedWorkspaceRecord, Workspace } from '@switchyard/config';
import { WorkspaceState } from './workspace-state';

/** A record of the workspace topic, as the reader hands it over. */
export interface WorkspaceTopicRecord {
  key: Buffer | null;
  value: Buffer | null;
  offset: string;
}

/**
 * The workspace as the workspace topic builds it. Each fetched batch is applied in offset order
 * and the live workspace changes once per batch; a record that cannot be applied is skipped with
 * an error line and a metric, and never stops routing. Its version is the topic position it has
 * applied up to, the same on every instance at the same position.
 */
export class WorkspaceTopic extends Workspace {
  constructor(
    private readonly state: WorkspaceState,
    private readonly logger: Logger,
  ) {
    super(state.config, 'empty');
  }

  /** The resource records as the topic holds them, for the management API. */
  get resources(): WorkspaceState {
    return this.state;
  }

  apply(records: readonly WorkspaceTopicRecord[]): void {
    if (records.length === 0) return;
    for (const record of records) {
      const key = record.key?.toString('utf8') ?? '';
      const outcome = this.state.apply(key, record.value);
      if ('skipped' in outcome) {
        countSkippedWorkspaceRecord();
        this.logger.error(
          { key: key.slice(0, 200), offset: record.offset, reason: outcome.skipped },
          'workspace record skipped; the resource keeps its previous state',
        );
      }
    }
    const next = BigInt(records[records.length - 1].offset) + 1n;
    this.replace(this.state.config, `offset-${next}`);
  }
}
