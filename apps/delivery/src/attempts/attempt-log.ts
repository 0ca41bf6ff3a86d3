import type { Logger } from 'pino';
import { DeliveryAttempt, encodeDeliveryAttempts } from '@switchyard/contracts';
import type { BatchingProducer } from '@switchyard/kafka';
import type { DeliveryMetrics } from '../delivery-metrics';

/** Where the worker hands an attempt's records; it never waits for them. */
export interface AttemptSink {
  record(attempts: DeliveryAttempt[]): void;
}

/**
 * Attempts waiting to be written at most: if the attempts topic cannot keep up (broker slow,
 * topic missing), further attempts are dropped and counted rather than held in memory.
 */
export const MAX_PENDING_ATTEMPTS = 10_000;
/** Attempts packed into one Kafka record: ~300 bytes each, ~1.6 KB with an error body, so a record stays far below the broker's 1 MB. */
export const ATTEMPTS_PER_RECORD = 200;
/** How long an attempt waits for company before its record is written (the console shows it that much later). */
export const ATTEMPTS_LINGER_MS = 50;

/**
 * Writes attempts to the attempts topic, many to a record, fire-and-forget with respect to the
 * delivery: through its own BatchingProducer (a failing attempts batch never fails the batch that
 * holds a job's retry or dead-letter record), never awaited by the worker, losses counted in
 * `switchyard_delivery_attempt_records_lost_total`.
 */
export class AttemptLog implements AttemptSink {
  private buffer: DeliveryAttempt[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Buffered and being written. */
  private pending = 0;
  private failing = false;

  constructor(
    private readonly batching: BatchingProducer,
    private readonly topic: string,
    private readonly metrics: DeliveryMetrics,
    private readonly logger: Logger,
    private readonly maxPending = MAX_PENDING_ATTEMPTS,
  ) {}

  record(attempts: DeliveryAttempt[]): void {
    if (this.pending + attempts.length > this.maxPending) {
      this.metrics.attemptRecordsLost.inc({ reason: 'backlog' }, attempts.length);
      return;
    }
    this.pending += attempts.length;
    this.buffer.push(...attempts);
    if (this.buffer.length >= ATTEMPTS_PER_RECORD) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), ATTEMPTS_LINGER_MS);
  }

  /** Resolves once every attempt handed over so far is written or counted as lost. */
  async drain(): Promise<void> {
    this.flush();
    await this.batching.drain();
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const attempts = this.buffer;
    if (attempts.length === 0) return;
    this.buffer = [];
    this.batching
      .send([{ topic: this.topic, key: null, value: encodeDeliveryAttempts(attempts) }])
      .then(
        () => {
          if (this.failing) this.logger.info({ topic: this.topic }, 'attempt records are written again');
          this.failing = false;
        },
        (error: Error) => {
          this.metrics.attemptRecordsLost.inc({ reason: 'produce-failed' }, attempts.length);
          // Once per outage, not once per record.
          if (!this.failing) this.logger.warn({ topic: this.topic, reason: error.message }, 'could not write attempt records; deliveries go on, the console misses them');
          this.failing = true;
        },
      )
      .finally(() => (this.pending -= attempts.length));
  }
}
