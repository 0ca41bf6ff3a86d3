import { IndexedAttempt } from './attempt-index';

/** Requests a destination's health is computed over: its most recent ones. */
export const HEALTH_WINDOW = 1000;

export interface DestinationHealth {
  /** Requests made (fail-fast refusals of an open circuit are not requests). */
  requests: number;
  /** Share of those answered 2xx, 0..1; null without requests. */
  successRate: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  /** Per URL, the circuit as the latest attempt saw it: `open` when delivery refused to call it. */
  circuits: Array<{ urlIndex: number; urlHost?: string; state: 'open' | 'closed' }>;
  lastAttemptAt?: string;
}

/** Health from a destination's recent attempts, newest first. Pure. */
export function destinationHealth(newestFirst: readonly IndexedAttempt[]): DestinationHealth {
  const requests = newestFirst.filter((a) => a.urlIndex !== undefined && a.errorKind !== 'circuit-open');
  const succeeded = requests.filter(
    (a) => a.status !== undefined && a.status >= 200 && a.status < 300,
  ).length;
  const durations = requests.map((a) => a.durationMs).sort((a, b) => a - b);
  const circuits = new Map<number, DestinationHealth['circuits'][number]>();
  for (const a of newestFirst) {
    if (a.urlIndex === undefined || circuits.has(a.urlIndex)) continue;
    circuits.set(a.urlIndex, {
      urlIndex: a.urlIndex,
      urlHost: a.urlHost,
      state: a.errorKind === 'circuit-open' ? 'open' : 'closed',
    });
  }
  return {
    requests: requests.length,
    successRate: requests.length === 0 ? null : succeeded / requests.length,
    p50Ms: percentile(durations, 0.5),
    p99Ms: percentile(durations, 0.99),
    circuits: [...circuits.values()].sort((a, b) => a.urlIndex - b.urlIndex),
    lastAttemptAt: newestFirst[0]?.at,
  };
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}
