import { collectDefaultMetrics, Counter, Histogram, Gauge, register, Registry } from 'prom-client';

export { Counter, Histogram, Gauge } from 'prom-client';

let defaultsCollected = false;

/**
 * How often the event-loop lag monitor samples, in ms. prom-client's 10 ms is a timer that wakes
 * an idle service 100 times a second, more than all of its own work at a low rate; a loop blocked
 * for longer than this still shows in full, on the sample after it.
 */
const EVENT_LOOP_LAG_SAMPLE_MS = 100;

/** The process-wide Prometheus registry, with Node's default metrics collected once. */
export function metricsRegistry(): Registry {
  if (!defaultsCollected) {
    collectDefaultMetrics({ register, eventLoopMonitoringPrecision: EVENT_LOOP_LAG_SAMPLE_MS });
    defaultsCollected = true;
  }
  return register;
}

/** Returns the metric already registered under `name`, or registers the one `create` builds: safe when tests start a service twice in one process. */
export function metric<T extends Counter | Histogram | Gauge>(name: string, create: () => T): T {
  return (metricsRegistry().getSingleMetric(name) as T | undefined) ?? create();
}
