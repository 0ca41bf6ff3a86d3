import { collectDefaultMetrics, Counter, Histogram, Gauge, register, Registry } from 'prom-client';

export { Counter, Histogram, Gauge } from 'prom-client';

let defaultsCollected = false;

/** The process-wide Prometheus registry, with Node's default metrics collected once. */
export function metricsRegistry(): Registry {
  if (!defaultsCollected) {
    collectDefaultMetrics({ register });
    defaultsCollected = true;
  }
  return register;
}

/** Returns the metric already registered under `name`, or registers the one `create` builds: safe when tests start a service twice in one process. */
export function metric<T extends Counter | Histogram | Gauge>(name: string, create: () => T): T {
  return (metricsRegistry().getSingleMetric(name) as T | undefined) ?? create();
}
