import { createHash } from 'node:crypto';
import { Counter, Gauge, metric } from '@switchyard/telemetry';

export type ReloadResult = 'applied' | 'refused';

const reloads = () =>
  metric('switchyard_workspace_reloads_total', () => {
    const counter = new Counter({
      name: 'switchyard_workspace_reloads_total',
      help: 'Edits of the workspace file seen while running: applied, or refused (invalid; the previous configuration stays live)',
      labelNames: ['result'],
    });
    // Both series exist from the start, so the first refused edit is an increase an alert sees.
    for (const result of ['applied', 'refused'] satisfies ReloadResult[]) counter.inc({ result }, 0);
    return counter;
  });

const liveVersion = () =>
  metric(
    'switchyard_workspace_config_info',
    () =>
      new Gauge({
        name: 'switchyard_workspace_config_info',
        help: 'The live workspace configuration: version is the first 12 hex digits of the SHA-256 of its file (compare pods with it); always 1',
        labelNames: ['version'],
      }),
  );

/** A short, stable name for one content of the workspace file: equal files, equal versions, on every pod. */
export function workspaceVersion(fileText: string): string {
  return createHash('sha256').update(fileText).digest('hex').slice(0, 12);
}

export function reportLiveWorkspace(version: string): void {
  const gauge = liveVersion();
  gauge.reset();
  gauge.set({ version }, 1);
}

export function countWorkspaceReload(result: ReloadResult): void {
  reloads().inc({ result });
}

/** Starts the reload counters at 0 (a service that never sees an edit still exports them). */
export function initialiseWorkspaceMetrics(): void {
  reloads();
  skippedRecords();
}

const skippedRecords = () =>
  metric(
    'switchyard_workspace_records_skipped_total',
    () =>
      new Counter({
        name: 'switchyard_workspace_records_skipped_total',
        help: 'Records of the workspace topic this service could not apply (logged with the reason); the resource keeps its previous state',
      }),
  );

export function countSkippedWorkspaceRecord(): void {
  skippedRecords().inc();
}
