import type { Logger } from 'pino';
import { AttemptsValue, DeliveryAttempt, DeliveryAttemptsWriter } from '@switchyard/contracts';
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

/**
 * Bytes one Kafka record of attempts holds at most (an attempt is a few hundred bytes, more with an
 * error body): far below the broker's 1 MB, and at full load the linger, not this, closes a record.
 */
export const ATTEMPTS_RECORD_BYTES = 256 * 1024;

/**
 * How long an attempt waits for company before its record is written (the console shows it that
 * much later). Each record pays a fixed compression cost on the event loop (zlib builds a fresh
 * context per call): at 50 ms that was a third of what the attempts topic cost delivery under full
 * load; at 250 ms a busy delivery fills records to ATTEMPTS_RECORD_BYTES before the linger ends.
 */
export const ATTEMPTS_LINGER_MS = 250;

/**
 * Writes attempts to the attempts topic, many to a record, fire-and-forget with respect to the
 * delivery: through its own BatchingProducer (a failing attempts batch never fails the batch that
 * holds a job's retry or dead-letter record), never awaited by the worker, losses counted in
 * `switchyard_delivery_attempt_records_lost_total`. Each attempt is encoded as it is recorded
 * (DeliveryAttemptsWriter), so what waits for the linger is bytes outside the JS heap.
 */
export class AttemptLog implements AttemptSink {
  private readonly writer = new DeliveryAttemptsWriter(ATTEMPTS_RECORD_BYTES);
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
    for (const attempt of attempts) {
      const full = this.writer.add(attempt);
      if (full) this.write(full);
    }
    this.timer ??= setTimeout(() => this.flush(), ATTEMPTS_LINGER_MS);
  }

  /** Resolves once every attempt handed over so far is written or counted as lost. */
  async drain(): Promise<void> {
    this.flush();
    await this.batching.drain();
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const last = this.writer.take();
    if (last) this.write(last);
  }

  private write({ value, attempts }: AttemptsValue): void {
    this.batching
      .send([{ topic: this.topic, key: null, value }])
      .then(
        () => {
          if (this.failing) this.logger.info({ topic: this.topic }, 'attempt records are written again');
          this.failing = false;
        },
        (error: Error) => {
          this.metrics.attemptRecordsLost.inc({ reason: 'produce-failed' }, attempts);
          // Once per outage, not once per record.
          if (!this.failing)
            this.logger.warn(
              { topic: this.topic, reason: error.message },
              'could not write attempt records; deliveries go on, the console misses them',
            );
          this.failing = true;
        },
      )
      .finally(() => (this.pending -= attempts));
  }
}
