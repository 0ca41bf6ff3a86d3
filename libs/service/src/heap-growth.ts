import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full collection before it
 * collects again, as a percentage of that (V8's `--heap-growing-percent`). Each service's values
 * are measured in bench/README.md, "Memory".
 */
export interface HeapGrowth {
  /** At everyday rates: a small heap, collected fully every several seconds. */
  readonly restingPercent: number;
  /** Under load: room enough that full collections stay rare and cheap per event. */
  readonly underLoadPercent: number;
}

/** Full collections closer together than this, at the resting growth, mean the service is under load. */
export const UNDER_LOAD_GAP_MS = 1_000;
/**
 * Full collections this far apart, at the under-load growth, mean the load has passed. The two
 * gaps lie further apart than the room the two growths leave, so a load between them does not
 * swing the growth back and forth.
 */
export const RESTING_GAP_MS = 10_000;

/**
 * Chooses the heap's growth from how often full collections come. The live data of a service
 * hardly depends on its load, so a growth sized for the ceiling holds tens of MB of garbage at an
 * everyday rate, and one sized for everyday rates runs a full collection every few hundred
 * milliseconds at the ceiling. The gap between full collections tells the two apart by a wide
 * margin: seconds at a few hundred events/s, a fraction of a second at the ceiling.
 */
export class HeapGrowthGovernor {
  private percent: number;
  private lastFullCollectionMs: number | undefined;

  constructor(
    private readonly growth: HeapGrowth,
    private readonly apply: (percent: number) => void,
  ) {
    this.percent = growth.restingPercent;
    apply(this.percent);
  }

  /** The growth in force. */
  get currentPercent(): number {
    return this.percent;
  }

  /** Told when each full collection starts, on a monotonic clock in ms. */
  onFullCollection(atMs: number): void {
    const previous = this.lastFullCollectionMs;
    this.lastFullCollectionMs = atMs;
    if (previous === undefined) return;
    const gap = atMs - previous;
    const { restingPercent, underLoadPercent } = this.growth;
    if (this.percent === restingPercent && gap < UNDER_LOAD_GAP_MS) this.use(underLoadPercent);
    else if (this.percent !== restingPercent && gap > RESTING_GAP_MS) this.use(restingPercent);
  }

  private use(percent: number): void {
    this.percent = percent;
    this.apply(percent);
  }
}

const GROWTH_FLAG = '--heap-growing-percent';

/**
 * Lets this process's heap grow with its load (HeapGrowthGovernor). V8 reads the growth each time
 * it sets the next full collection's limit, so a change takes effect from the next one on. A
 * growth given on the command line is the operator's choice and is left alone.
 */
export function governHeapGrowth(
  growth: HeapGrowth,
  execArgv: readonly string[] = process.execArgv,
): HeapGrowthGovernor | undefined {
  // V8 takes its flags with dashes or underscores.
  if (execArgv.some((arg) => arg.replaceAll('_', '-').startsWith(GROWTH_FLAG))) return undefined;
  const governor = new HeapGrowthGovernor(growth, (percent) =>
    setFlagsFromString(`${GROWTH_FLAG}=${percent}`),
  );
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      // A gc entry's detail says which collection it was; the type declares it on marks and measures only.
      const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } };
      if (detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        governor.onFullCollection(entry.startTime);
      }
    }
  }).observe({ entryTypes: ['gc'] });
  return governor;
}
