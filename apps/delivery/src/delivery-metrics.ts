import { Counter, Gauge, Histogram, metric } from '@switchyard/telemetry';
import type { RetryBacklog } from './consumer/retry-backlog';

/** The running service's backlog reader; the gauge is registered once per process, the service may start more than once (tests). */
let backlogSource: RetryBacklog | undefined;

export function measureRetryBacklogWith(source: RetryBacklog | undefined): void {
  backlogSource = source;
}

/** Delivery's Prometheus metrics, registered once per process. */
export function deliveryMetrics() {
  return {
    deliveries: metric('switchyard_delivery_jobs_total', () => new Counter({
      name: 'switchyard_delivery_jobs_total',
      help: 'Delivery attempts by outcome: delivered, retry, dead',
      labelNames: ['outcome'],
    })),
    requestSeconds: metric('switchyard_delivery_request_duration_seconds', () => new Histogram({
      name: 'switchyard_delivery_request_duration_seconds',
      help: 'Duration of one webhook request, by result',
      labelNames: ['result'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    })),
    retries: metric('switchyard_delivery_retries_total', () => new Counter({
      name: 'switchyard_delivery_retries_total',
      help: 'Jobs sent to a retry topic, by tier',
      labelNames: ['tier'],
    })),
    deadLetters: metric('switchyard_delivery_dead_letters_total', () => new Counter({
      name: 'switchyard_delivery_dead_letters_total',
      help: 'Jobs sent to the dead-letter topic, by failure',
      labelNames: ['failure'],
    })),
    replays: metric('switchyard_delivery_replays_total', () => new Counter({
      name: 'switchyard_delivery_replays_total',
      help: 'Dead letters replayed into delivery',
    })),
    retryBacklog: metric('switchyard_delivery_retry_backlog', () => new Gauge({
      name: 'switchyard_delivery_retry_backlog',
      help: 'Jobs waiting in each retry tier (end offset minus the group committed offset)',
      labelNames: ['tier'],
      async collect() {
        for (const { tier, jobs } of (await backlogSource?.measure().catch(() => [])) ?? []) this.set({ tier: String(tier) }, jobs);
      },
    })),
    attemptRecordsLost: metric('switchyard_delivery_attempt_records_lost_total', () => new Counter({
      name: 'switchyard_delivery_attempt_records_lost_total',
      help: 'Attempts not written to the attempts topic (the deliveries themselves went on), by reason: backlog, produce-failed',
      labelNames: ['reason'],
    })),
    inFlight: metric('switchyard_delivery_in_flight', () => new Gauge({
      name: 'switchyard_delivery_in_flight',
      help: 'Jobs taken from Kafka and not finished yet',
    })),
  };
}

export type DeliveryMetrics = ReturnType<typeof deliveryMetrics>;
