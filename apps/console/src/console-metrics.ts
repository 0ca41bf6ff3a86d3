import { Counter, Gauge, metric } from '@switchyard/telemetry';
import type { ConsoleIndexes } from './index/console-indexes';

/** The running console's index; the metrics are registered once per process, the service may start more than once (tests). */
let measured: ConsoleIndexes | undefined;

export function measureIndexWith(index: ConsoleIndexes | undefined): void {
  measured = index;
}

/** The console's Prometheus metrics, registered once per process. */
export function consoleMetrics() {
  return {
    entries: metric(
      'switchyard_console_index_entries',
      () =>
        new Gauge({
          name: 'switchyard_console_index_entries',
          help: 'Records the console holds in memory, by kind: attempts, dead_letters, calls',
          labelNames: ['kind'],
          collect() {
            if (!measured) return;
            this.set({ kind: 'attempts' }, measured.attempts.size);
            this.set({ kind: 'dead_letters' }, measured.deadLetters.size);
            this.set({ kind: 'calls' }, measured.calls.size);
          },
        }),
    ),
    evicted: metric(
      'switchyard_console_index_evicted_total',
      () =>
        new Counter({
          name: 'switchyard_console_index_evicted_total',
          help: 'Records evicted from the in-memory index to stay within its limits, by kind: attempts, dead_letters, calls',
          labelNames: ['kind'],
          collect() {
            if (!measured) return;
            // The index counts its evictions; the counter shows its running total.
            this.reset();
            this.inc({ kind: 'attempts' }, measured.attempts.evicted);
            this.inc({ kind: 'dead_letters' }, measured.deadLetters.evicted);
            this.inc({ kind: 'calls' }, measured.calls.evicted);
          },
        }),
    ),
    skipped: metric(
      'switchyard_console_records_skipped_total',
      () =>
        new Counter({
          name: 'switchyard_console_records_skipped_total',
          help: 'Records the console could not read (or, for calls, of sources not in the workspace), by topic',
          labelNames: ['topic'],
        }),
    ),
  };
}

export type ConsoleMetrics = ReturnType<typeof consoleMetrics>;
