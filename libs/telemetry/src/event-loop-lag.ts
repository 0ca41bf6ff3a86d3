import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Gauge, Registry } from 'prom-client';

/**
 * How often the event loop's delay is sampled. prom-client samples every 10 ms, which woke an
 * idle service 100 times a second, most of its wake-ups at rest. A block of the loop still shows
 * at this period: it delays the sample due during it.
 */
export const LAG_SAMPLE_MS = 100;

type Histogram = ReturnType<typeof monitorEventLoopDelay>;

/**
 * The histogram gauges, under prom-client's names so dashboards built on them keep working, and
 * the nanoseconds each reads from the histogram.
 */
const HISTOGRAM_GAUGES: readonly { name: string; help: string; nanoseconds(h: Histogram): number }[] = [
  {
    name: 'nodejs_eventloop_lag_min_seconds',
    help: 'The shortest event loop delay sampled since the last scrape.',
    nanoseconds: (h) => h.min,
  },
  {
    name: 'nodejs_eventloop_lag_max_seconds',
    help: 'The longest event loop delay sampled since the last scrape.',
    nanoseconds: (h) => h.max,
  },
  {
    name: 'nodejs_eventloop_lag_mean_seconds',
    help: 'The mean event loop delay sampled since the last scrape.',
    nanoseconds: (h) => h.mean,
  },
  {
    name: 'nodejs_eventloop_lag_p50_seconds',
    help: 'The median sampled event loop delay.',
    nanoseconds: (h) => h.percentile(50),
  },
  {
    name: 'nodejs_eventloop_lag_p90_seconds',
    help: 'The 90th percentile of the sampled event loop delays.',
    nanoseconds: (h) => h.percentile(90),
  },
  {
    name: 'nodejs_eventloop_lag_p99_seconds',
    help: 'The 99th percentile of the sampled event loop delays.',
    nanoseconds: (h) => h.percentile(99),
  },
];
/** A spread, not a delay: no period to take off. */
const STDDEV_GAUGE = 'nodejs_eventloop_lag_stddev_seconds';
const SCRAPE_LAG_GAUGE = 'nodejs_eventloop_lag_seconds';

/** Every name prom-client's own event-loop collector registers, for `replaceEventLoopLag` to take over. */
export const EVENT_LOOP_LAG_METRICS: readonly string[] = [
  SCRAPE_LAG_GAUGE,
  ...HISTOGRAM_GAUGES.map(({ name }) => name),
  STDDEV_GAUGE,
];

const NS_PER_SECOND = 1e9;
const SAMPLE_NS = LAG_SAMPLE_MS * 1e6;

/**
 * Replaces prom-client's event-loop lag metrics in `register` with the same names sampled every
 * LAG_SAMPLE_MS. Each histogram figure is the delay beyond the sampling period, in seconds: what
 * a sample waited for the loop. prom-client's figures include its 10 ms period (an idle loop
 * reads ~0.01 s there, ~0 here). `nodejs_eventloop_lag_seconds` is measured as prom-client does:
 * how long a scrape's `setImmediate` waited, set for the next scrape.
 */
export function replaceEventLoopLag(register: Registry): void {
  for (const name of EVENT_LOOP_LAG_METRICS) register.removeSingleMetric(name);
  const histogram = monitorEventLoopDelay({ resolution: LAG_SAMPLE_MS });
  histogram.enable();
  const scrapeLag: Gauge = new Gauge({
    name: SCRAPE_LAG_GAUGE,
    help: 'How long the last scrape waited for the event loop, in seconds.',
    registers: [register],
    collect() {
      const start = process.hrtime.bigint();
      setImmediate(() => scrapeLag.set(Number(process.hrtime.bigint() - start) / NS_PER_SECOND));
      const sampled = histogram.count > 0;
      for (const { nanoseconds, gauge } of figures) {
        gauge.set(sampled ? Math.max(0, nanoseconds(histogram) - SAMPLE_NS) / NS_PER_SECOND : 0);
      }
      stddev.set(sampled ? histogram.stddev / NS_PER_SECOND : 0);
      histogram.reset();
    },
  });
  // Registered after the gauge whose collect sets them, so a scrape writes the values it just set.
  const figures = HISTOGRAM_GAUGES.map(({ name, help, nanoseconds }) => ({
    nanoseconds,
    gauge: new Gauge({ name, help, registers: [register] }),
  }));
  const stddev = new Gauge({
    name: STDDEV_GAUGE,
    help: 'The standard deviation of the sampled event loop delays.',
    registers: [register],
  });
}
