import { collectDefaultMetrics, Counter, Histogram, Gauge, register, Registry } from 'prom-client';
import { replaceEventLoopLag } from './event-loop-lag';

export { Counter, Histogram, Gauge } from 'prom-client';

let defaultsCollected = false;

/**
 * prom-client cannot leave out its event-loop monitor, whose metrics replaceEventLoopLag takes
 * over; at this period the monitor, no longer read, wakes the loop once a minute.
 */
const UNREAD_MONITOR_PERIOD_MS = 60_000;

/** The process-wide Prometheus registry, with Node's default metrics collected once. */
export function metricsRegistry(): Registry {
  if (!defaultsCollected) {
    collectDefaultMetrics({ register, eventLoopMonitoringPrecision: UNREAD_MONITOR_PERIOD_MS });
    replaceEventLoopLag(register);
    defaultsCollected = true;
  }
  return register;
}

/** Returns the metric already registered under `name`, or registers the one `create` builds: safe when tests start a service twice in one process. */
export function metric<T extends Counter | Histogram | Gauge>(name: string, create: () => T): T {
  return (metricsRegistry().getSingleMetric(name) as T | undefined) ?? create();
}
