import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Gauge, Registry } from 'prom-client';

/**
 * How often the event loop's delay is sampled. prom-client samples every 10 ms, which woke an
 * idle service 100 times a second, most of its wake-ups at rest. A block of the loop still shows
 * at this period: it delays the sample due during it.
 */
export const LAG_SAMPLE_MS = 100;

/** The histogram gauges, under prom-client's names so dashboards built on them keep working. */
const HISTOGRAM_GAUGES = {
  min: 'nodejs_eventloop_lag_min_seconds',
  max: 'nodejs_eventloop_lag_max_seconds',
  mean: 'nodejs_eventloop_lag_mean_seconds',
  stddev: 'nodejs_eventloop_lag_stddev_seconds',
  p50: 'nodejs_eventloop_lag_p50_seconds',
  p90: 'nodejs_eventloop_lag_p90_seconds',
  p99: 'nodejs_eventloop_lag_p99_seconds',
} as const;
const SCRAPE_LAG_GAUGE = 'nodejs_eventloop_lag_seconds';

/** Every name prom-client's own event-loop collector registers, for `replaceEventLoopLag` to take over. */
export const EVENT_LOOP_LAG_METRICS: readonly string[] = [
  SCRAPE_LAG_GAUGE,
  ...Object.values(HISTOGRAM_GAUGES),
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
      const beyondPeriod = (ns: number) =>
        histogram.count === 0 ? 0 : Math.max(0, ns - SAMPLE_NS) / NS_PER_SECOND;
      figures.min.set(beyondPeriod(histogram.min));
      figures.max.set(beyondPeriod(histogram.max));
      figures.mean.set(beyondPeriod(histogram.mean));
      figures.stddev.set(histogram.count === 0 ? 0 : histogram.stddev / NS_PER_SECOND);
      figures.p50.set(beyondPeriod(histogram.percentile(50)));
      figures.p90.set(beyondPeriod(histogram.percentile(90)));
      figures.p99.set(beyondPeriod(histogram.percentile(99)));
      histogram.reset();
    },
  });
  // Registered after the gauge whose collect sets them, so a scrape writes the values it just set.
  const gauge = (name: string, help: string) => new Gauge({ name, help, registers: [register] });
  const figures = {
    min: gauge(HISTOGRAM_GAUGES.min, 'The shortest event loop delay sampled since the last scrape.'),
    max: gauge(HISTOGRAM_GAUGES.max, 'The longest event loop delay sampled since the last scrape.'),
    mean: gauge(HISTOGRAM_GAUGES.mean, 'The mean event loop delay sampled since the last scrape.'),
    stddev: gauge(HISTOGRAM_GAUGES.stddev, 'The standard deviation of the sampled event loop delays.'),
    p50: gauge(HISTOGRAM_GAUGES.p50, 'The median sampled event loop delay.'),
    p90: gauge(HISTOGRAM_GAUGES.p90, 'The 90th percentile of the sampled event loop delays.'),
    p99: gauge(HISTOGRAM_GAUGES.p99, 'The 99th percentile of the sampled event loop delays.'),
  };
}
