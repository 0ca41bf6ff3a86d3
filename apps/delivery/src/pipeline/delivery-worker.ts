import type { Logger } from 'pino';
import type { Destination } from '@switchyard/config';
import {
  decodeDeliveryHeaders,
  decodeReceivedAt,
  decodeThrottledUntil,
  DELIVERY_RECORD_HEADERS,
  headerString,
  TopicNames,
} from '@switchyard/contracts';
import type { OutgoingRecord } from '@switchyard/kafka';
import {
  annotateActiveSpan,
  markSpanFailed,
  Span,
  traceRecordCreation,
  withProcessSpan,
} from '@switchyard/telemetry';
import { AttemptSink } from '../attempts/attempt-log';
import { attemptRecords, FinishedAttempt } from '../attempts/attempt-records';
import { Clock } from '../clock';
import { WebhookHttpClient } from '../http/webhook-http-client';
import { CircuitBreakers } from '../isolation/circuit-breaker';
import { DestinationLimiter } from '../isolation/destination-limiter';
import { Admission, RateGate } from '../isolation/rate-gate';
import { DeliveryMetrics } from '../delivery-metrics';
import { AttemptResult, NextStep } from '../delivery-vocabulary';
import { destinationRetryPolicy } from '../retry/destination-retry-policy';
import { tierFor } from '../retry/retry-schedule';
import { decideNext, RetryPolicy } from './decide-next';
import { makeAttempt, redact } from './make-attempt';
import { prepareDispatch } from './prepare-dispatch';
import { readDeliveryRecord } from './read-record';
import { IncomingRecord, outputRecord } from './route-step';
import { spanOutcome } from './span-outcome';

export interface DeliveryWorkerDeps {
  topics: TopicNames;
  /** The consumer group the jobs are read by (their process spans name it). */
  consumerGroup: string;
  destination: (id: string) => Destination | undefined;
  client: WebhookHttpClient;
  breakers: CircuitBreakers;
  limiter: DestinationLimiter;
  rateGate: RateGate;
  clock: Clock;
  random: () => number;
  /** Resolves once the broker acknowledged the records (acks = all). */
  produce: (records: OutgoingRecord[]) => Promise<void>;
  /** The service's retry policy; a destination's own settings override parts of it. */
  policy: RetryPolicy;
  userAgentToken: string;
  requestTimeoutMs: number;
  logger: Logger;
  metrics: DeliveryMetrics;
  /** Receives each attempt's records (the attempts topic); absent when that topic is switched off. */
  attempts?: AttemptSink;
}

/** An attempt's step, and what the attempt log records of it (nothing for an unreadable record). */
interface Attempted {
  step: NextStep;
  finished?: FinishedAttempt;
}

/** How long to wait before producing again when the broker refuses a record (kafkajs has already retried). */
const PRODUCE_RETRY_MS = 1000;

/**
 * Runs one record through the pipeline: read → prepare → attempt → decide → route. The promise
 * settles only when the job's outcome is durable (delivered, or its retry / dead-letter record
 * acknowledged by the broker), so the caller may then commit past it. It rejects only when
 * `stop()` is called while the outcome is not durable yet; the job is then re-delivered later.
 */
export class DeliveryWorker {
  private stopped = false;

  constructor(private readonly deps: DeliveryWorkerDeps) {}

  async process(record: IncomingRecord): Promise<NextStep> {
    // The job's span joins the event's trace (traceparent travels with the job through retries);
    // the webhook request undici makes inside it is its child and carries it to the receiver.
    return withProcessSpan(record, this.deps.consumerGroup, async (span) => {
      // The same header the job is read by later; a record without it is refused in its slot as unreadable.
      const destinationId = headerString(record.headers, DELIVERY_RECORD_HEADERS.destinationId) ?? '';
      const { step, finished } = await this.attempt(record, destinationId);
      const output = outputRecord(step, record, this.deps.topics, this.deps.clock.now());
      // The retry or dead-letter record gets a create span here, so the job's next attempt (or
      // its replay) continues this trace.
      if (output) await this.produceUntilAcknowledged(traceRecordCreation([output])[0]);
      // Recorded once the outcome is durable, so an attempt shown as dead-lettered can be replayed;
      // never awaited: the attempt log must not delay the job.
      if (finished) this.deps.attempts?.record(attemptRecords(finished));
      this.observe(step, record, destinationId);
      if (span.isRecording()) describeOutcome(span, step);
      return step;
    });
  }

  /** Makes pending produce retries give up; in-flight HTTP requests still finish. */
  stop(): void {
    this.stopped = true;
  }

  /**
   * The destination's rate limit comes first: a job whose send slot is more than a moment away
   * goes to wait in a retry topic, not in memory. Then its request slot, taken before the record
   * is read: jobs queued behind a busy or dead destination (thousands, by design, so other
   * destinations' jobs can pass them) wait as their raw bytes rather than as parsed jobs and
   * signed bodies, which outlived V8's young generation and made most of delivery's GC work.
   */
  private async attempt(record: IncomingRecord, destinationId: string): Promise<Attempted> {
    const { deps } = this;
    const destination = deps.destination(destinationId);
    const limit = destination?.enabled ? destination.settings.rateLimit : undefined;
    const admission = deps.rateGate.admit(destinationId, limit, decodeThrottledUntil(record.headers));
    if (admission.kind === 'defer') return { step: this.throttled(record, admission) };
    await this.sleep(admission.waitMs);
    return deps.limiter.run(destinationId, async () => {
      let wait = deps.rateGate.sendWait(destinationId, limit);
      while (wait > 0) {
        await this.sleep(wait);
        wait = deps.rateGate.sendWait(destinationId, limit);
      }
      return this.attemptInSlot(record);
    });
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.deps.clock.schedule(ms, resolve));
  }

  /** The job waits for its send slot in the retry topic that fits the wait; its history is unchanged (no attempt was made). */
  private throttled(record: IncomingRecord, admission: Extract<Admission, { kind: 'defer' }>): NextStep {
    const { state } = decodeDeliveryHeaders(record.headers);
    const waitMs = admission.untilMs - this.deps.clock.now();
    return {
      kind: 'throttled',
      tier: tierFor(waitMs, this.deps.policy.schedule.tiersMs),
      state: {
        ...state,
        notBefore: admission.untilMs,
        throttledUntil: admission.reserved ? admission.untilMs : undefined,
      },
    };
  }

  private async attemptInSlot(record: IncomingRecord): Promise<Attempted> {
    const { deps } = this;
    const read = readDeliveryRecord(record.value, record.headers);
    if (!read.ok)
      return {
        step: { kind: 'dead', failure: 'unreadable', state: { ...read.state, lastError: read.reason } },
      };
    annotateActiveSpan({
      'switchyard.message_id': read.job.messageId,
      'switchyard.source_id': read.job.sourceId,
      'switchyard.destination_id': read.job.destinationId,
      'switchyard.attempt': read.state.attempt + 1,
    });
    const destination = deps.destination(read.job.destinationId);
    const prepared = prepareDispatch(read.job, destination, deps.userAgentToken, deps.clock.now());
    if (prepared.kind === 'undeliverable') {
      const step: NextStep = {
        kind: 'dead',
        failure: prepared.failure,
        state: { ...read.state, throttledUntil: undefined, lastError: prepared.reason },
      };
      return { step, finished: { job: read.job, step, nowMs: deps.clock.now() } };
    }
    const result = await makeAttempt(prepared.plan, {
      client: deps.client,
      breakers: deps.breakers,
      clock: deps.clock,
      timeoutMs: deps.requestTimeoutMs,
      onRequest: (seconds, outcome) =>
        deps.metrics.requestDone(prepared.plan.destinationId, seconds, outcome),
    });
    this.logFailures(read.job.jobId, read.state.attempt + 1, result);
    if (result.verdict === 'retry' && askedToSlowDown(result)) {
      const { retryAfterMs } = result;
      const cap = deps.policy.schedule.retryAfterMaxMs;
      deps.rateGate.slowDown(
        read.job.destinationId,
        retryAfterMs === undefined ? undefined : Math.min(retryAfterMs, cap),
      );
    }
    const nowMs = deps.clock.now();
    const policy = destinationRetryPolicy(deps.policy, destination?.settings.retry);
    const step = decideNext(read.state, result, nowMs, policy, deps.random);
    return { step, finished: { job: read.job, result, step, nowMs } };
  }

  private async produceUntilAcknowledged(output: OutgoingRecord): Promise<void> {
    for (;;) {
      try {
        return await this.deps.produce([output]);
      } catch (error) {
        if (this.stopped) throw error;
        this.deps.logger.error(
          { topic: output.topic, reason: (error as Error).message },
          'could not write a delivery record; trying again',
        );
        await new Promise<void>((resolve) => this.deps.clock.schedule(PRODUCE_RETRY_MS, resolve));
      }
    }
  }

  private logFailures(jobId: string, attempt: number, result: AttemptResult): void {
    for (const failure of result.failures) {
      const fields = { jobId, attempt, url: redact(failure.url), reason: failure.reason };
      if (failure.errorKind === 'timeout') this.deps.logger.warn(fields, 'webhook request timed out');
      else this.deps.logger.info(fields, 'webhook request failed');
    }
  }

  private observe(step: NextStep, record: IncomingRecord, destinationId: string): void {
    const { metrics, logger, clock } = this.deps;
    const receivedAt = step.kind === 'delivered' ? decodeReceivedAt(record.headers) : undefined;
    metrics.jobFinished(
      destinationId,
      step,
      receivedAt === undefined ? undefined : (clock.now() - receivedAt) / 1000,
    );
    if (step.kind === 'dead') {
      logger.warn(
        {
          topic: record.topic,
          offset: record.offset,
          failure: step.failure,
          attempts: step.state.attempt,
          reason: step.state.lastError,
        },
        'job dead-lettered',
      );
    }
  }
}

/** The receiver said it gets too much: a 429 from any URL, or a `Retry-After`. */
function askedToSlowDown(result: Extract<AttemptResult, { verdict: 'retry' }>): boolean {
  return result.retryAfterMs !== undefined || result.failures.some((f) => f.status === 429);
}

function describeOutcome(span: Span, step: NextStep): void {
  const { attributes, error } = spanOutcome(step);
  span.setAttributes(attributes);
  if (error) markSpanFailed(span, error.type, error.message);
}
