import type { Destination } from '@switchyard/config';
import { DEAD_FAILURES } from '@switchyard/contracts';
import type { ConsumerLagMonitor } from '@switchyard/kafka';
import { Counter, Gauge, Histogram, metric } from '@switchyard/telemetry';
import { retryBacklog } from './consumer/retry-backlog';
import { CircuitBreakers, CircuitState } from './isolation/circuit-breaker';
import { DestinationLimiter } from './isolation/destination-limiter';
import { RateGate } from './isolation/rate-gate';
import { NextStep } from './delivery-vocabulary';

/**
 * The `destination` label of a job whose destination is not in the configuration (removed, or a
 * record nobody can read). Ids from Kafka never become label values by themselves, so the number
 * of series stays bounded by the workspace. Parentheses cannot occur in a destination id.
 */
export const UNCONFIGURED_DESTINATION = '(unconfigured)';

const JOB_OUTCOMES: ReadonlyArray<NextStep['kind']> = ['delivered', 'retry', 'dead'];

/** Gauge values of a circuit, growing with how bad it is, so `max by (destination)` means something. */
export const CIRCUIT_STATE_VALUE: Readonly<Record<CircuitState, number>> = {
  closed: 0,
  'half-open': 1,
  open: 2,
};

/** An event's age at delivery spans milliseconds (live traffic) to the 4-hour retry window and beyond (replays). */
const AGE_BUCKETS_SECONDS = [
  0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 1800, 3600, 7200, 14400,
];

/** What the scrape-time gauges read from the running service. */
export interface DeliveryLiveState {
  destinations(): readonly Destination[];
  breakers: CircuitBreakers;
  limiter: DestinationLimiter;
  rateGate: RateGate;
  lag: ConsumerLagMonitor;
  /** Retry topic of each tier, tier 1 first. */
  retryTopics: readonly string[];
}

/** The running service's state; the gauges are registered once per process, the service may start more than once (tests). */
let live: DeliveryLiveState | undefined;

export function readLiveStateFrom(state: DeliveryLiveState | undefined): void {
  live = state;
}

function families() {
  return {
    jobs: metric(
      'switchyard_delivery_jobs_total',
      () =>
        new Counter({
          name: 'switchyard_delivery_jobs_total',
          help: 'Delivery attempts by destination and outcome: delivered, retry, dead',
          labelNames: ['destination', 'outcome'],
        }),
    ),
    requestSeconds: metric(
      'switchyard_delivery_request_duration_seconds',
      () =>
        new Histogram({
          name: 'switchyard_delivery_request_duration_seconds',
          help: 'Duration of one webhook request, by destination and result',
          labelNames: ['destination', 'result'],
          buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        }),
    ),
    eventAge: metric(
      'switchyard_delivery_event_age_seconds',
      () =>
        new Histogram({
          name: 'switchyard_delivery_event_age_seconds',
          help: 'Age of a call when its webhook answered 2xx: from ingest receiving it to the answer, retries included, by destination',
          labelNames: ['destination'],
          buckets: AGE_BUCKETS_SECONDS,
        }),
    ),
    retries: metric(
      'switchyard_delivery_retries_total',
      () =>
        new Counter({
          name: 'switchyard_delivery_retries_total',
          help: 'Jobs sent to a retry topic, by destination and tier',
          labelNames: ['destination', 'tier'],
        }),
    ),
    deadLetters: metric(
      'switchyard_delivery_dead_letters_total',
      () =>
        new Counter({
          name: 'switchyard_delivery_dead_letters_total',
          help: 'Jobs sent to the dead-letter topic, by destination and failure',
          labelNames: ['destination', 'failure'],
        }),
    ),
    throttled: metric(
      'switchyard_delivery_jobs_throttled_total',
      () =>
        new Counter({
          name: 'switchyard_delivery_jobs_throttled_total',
          help: "Jobs the destination's rate limit (or its 429 / Retry-After) sent to wait in a retry topic, no attempt made",
          labelNames: ['destination'],
        }),
    ),
    rateShare: metric(
      'switchyard_delivery_rate_limit_share',
      () =>
        new Gauge({
          name: 'switchyard_delivery_rate_limit_share',
          help: "This process's part of every destination's rate limit: the share of the delivery group's partitions it owns",
          collect() {
            if (live) this.set(live.rateGate.currentShare);
          },
        }),
    ),
    replays: metric(
      'switchyard_delivery_replays_total',
      () =>
        new Counter({
          name: 'switchyard_delivery_replays_total',
          help: 'Dead letters replayed into delivery',
        }),
    ),
    inFlight: metric(
      'switchyard_delivery_in_flight',
      () =>
        new Gauge({
          name: 'switchyard_delivery_in_flight',
          help: 'Jobs taken from Kafka and not finished yet',
        }),
    ),
    retryBacklog: metric(
      'switchyard_delivery_retry_backlog',
      () =>
        new Gauge({
          name: 'switchyard_delivery_retry_backlog',
          help: 'Jobs waiting in each retry tier (end offset minus the group committed offset)',
          labelNames: ['tier'],
          async collect() {
            if (!live) return;
            const lag = await live.lag.measure().catch(() => undefined);
            if (lag)
              for (const { tier, jobs } of retryBacklog(lag, live.retryTopics))
                this.set({ tier: String(tier) }, jobs);
          },
        }),
    ),
    attemptRecordsLost: metric('switchyard_delivery_attempt_records_lost_total', () => {
      const counter = new Counter({
        name: 'switchyard_delivery_attempt_records_lost_total',
        help: 'Attempts not written to the attempts topic (the deliveries themselves went on), by reason: backlog, produce-failed',
        labelNames: ['reason'],
      });
      for (const reason of ['backlog', 'produce-failed']) counter.inc({ reason }, 0);
      return counter;
    }),
    circuitState: metric(
      'switchyard_delivery_circuit_state',
      () =>
        new Gauge({
          name: 'switchyard_delivery_circuit_state',
          help: 'Circuit breaker of each webhook URL in this process: 0 closed, 1 half-open (probing), 2 open (failing fast)',
          labelNames: ['destination', 'url_index'],
          collect() {
            this.reset();
            for (const destination of live?.destinations() ?? []) {
              destination.settings.webhooks.forEach((webhook, index) =>
                this.set(
                  { destination: destination.id, url_index: String(index) },
                  CIRCUIT_STATE_VALUE[live!.breakers.state(webhook.url)],
                ),
              );
            }
          },
        }),
    ),
    requestsInFlight: metric(
      'switchyard_delivery_requests_in_flight',
      () =>
        new Gauge({
          name: 'switchyard_delivery_requests_in_flight',
          help: 'Jobs of the destination holding one of its request slots now (DELIVERY_MAX_IN_FLIGHT_PER_DESTINATION)',
          labelNames: ['destination'],
          collect() {
            this.reset();
            for (const { id } of live?.destinations() ?? [])
              this.set({ destination: id }, live!.limiter.inFlight(id));
          },
        }),
    ),
    jobsWaiting: metric(
      'switchyard_delivery_jobs_waiting',
      () =>
        new Gauge({
          name: 'switchyard_delivery_jobs_waiting',
          help: 'Jobs of the destination waiting in this process for a request slot',
          labelNames: ['destination'],
          collect() {
            this.reset();
            for (const { id } of live?.destinations() ?? [])
              this.set({ destination: id }, live!.limiter.queued(id));
          },
        }),
    ),
  };
}

/** Delivery's Prometheus metrics. Counters carry the configured destinations' ids only (see UNCONFIGURED_DESTINATION). */
export class DeliveryMetrics {
  private readonly family = families();
  private configured = new Set<string>();
  /** Jobs taken from Kafka and not finished yet, in this process. */
  readonly inFlight = this.family.inFlight;
  /** Attempts the attempts topic did not get (the console's history), by reason. */
  readonly attemptRecordsLost = this.family.attemptRecordsLost;

  /**
   * Makes `destinationIds` the label values jobs may carry, and starts every counter of theirs at
   * 0 (each outcome, failure and retry tier), so `increase()` and `rate()` see the first event of a
   * kind instead of a series born at 1. Call again when the workspace changes; series of removed
   * destinations stay (a counter that vanishes would read as a reset).
   */
  configure(destinationIds: readonly string[], retryTiers: number): void {
    this.configured = new Set(destinationIds);
    const { jobs, retries, deadLetters, throttled } = this.family;
    for (const destination of [...destinationIds, UNCONFIGURED_DESTINATION]) {
      for (const outcome of JOB_OUTCOMES) jobs.inc({ destination, outcome }, 0);
      throttled.inc({ destination }, 0);
      for (const failure of DEAD_FAILURES) deadLetters.inc({ destination, failure }, 0);
      for (let tier = 1; tier <= retryTiers; tier++) retries.inc({ destination, tier: String(tier) }, 0);
    }
  }

  /** The label value for a job's destination id. */
  destination(id: string): string {
    return this.configured.has(id) ? id : UNCONFIGURED_DESTINATION;
  }

  /** A job's outcome is durable; `ageSeconds` is its call's age when a delivery answered 2xx, when known. */
  jobFinished(destinationId: string, step: NextStep, ageSeconds: number | undefined): void {
    const destination = this.destination(destinationId);
    const { jobs, retries, deadLetters, eventAge, throttled } = this.family;
    if (step.kind === 'throttled') return throttled.inc({ destination });
    jobs.inc({ destination, outcome: step.kind });
    if (step.kind === 'retry') retries.inc({ destination, tier: String(step.tier) });
    if (step.kind === 'dead') deadLetters.inc({ destination, failure: step.failure });
    // Hosts' clocks differ a little; a call "from the future" is counted as just received.
    if (step.kind === 'delivered' && ageSeconds !== undefined)
      eventAge.observe({ destination }, Math.max(0, ageSeconds));
  }

  requestDone(destinationId: string, seconds: number, result: 'delivered' | 'retry' | 'permanent'): void {
    this.family.requestSeconds.observe({ destination: this.destination(destinationId), result }, seconds);
  }

  replayed(jobs: number): void {
    this.family.replays.inc(jobs);
  }
}
