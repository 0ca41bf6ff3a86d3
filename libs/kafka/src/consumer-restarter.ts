import type { Logger } from 'pino';
import { ClientAvailability } from './client-availability';
import { KAFKA_RETRY } from './kafka-client';
import { ConsumerCrash, ConsumerRunOptions, KafkaConsumer } from './kafka-port';
import { CommitTimer, unrefTimer } from './offset-committer';

/** Delays between restarts of a consumer that keeps crashing: doubled per crash up to `maxMs`, back to `initialMs` once it joins its group. */
export interface RestartBackoff {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_RESTART_BACKOFF: RestartBackoff = { initialMs: 1_000, maxMs: 30_000 };

type RestartableConsumer = Pick<KafkaConsumer, 'run' | 'on' | 'events'>;

/**
 * Runs a consumer and keeps it running. kafkajs restarts a crashed consumer by itself only when
 * the crash's root cause is marked retriable; after any other (a TypeError thrown by a handler, a
 * rejected SASL credential, a missing ACL) it has disconnected the consumer and leaves it stopped,
 * while the process stays alive and its records stay unread. This restarts it then, with the same
 * run configuration, after a growing delay, and logs each such crash once with its cause.
 *
 * In process rather than exiting for the supervisor to restart: a new process would retry the
 * same thing, but would also drop the in-flight work of the service's other consumers and force a
 * rebalance, and liveness must stay 200 through Kafka trouble. Readiness reports the consumer down
 * meanwhile.
 *
 * Either way a restart is logged at warn once per outage, with the delay before the next try, and
 * the consumer's joining its group again is logged at info with the outage's length
 * (ClientAvailability).
 */
export class ConsumerRestarter {
  private delayMs: number;
  private cancelRestart: (() => void) | undefined;
  private restarting: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly availability: ClientAvailability;

  constructor(
    private readonly consumer: RestartableConsumer,
    private readonly config: ConsumerRunOptions,
    /** Names the consumer in logs, e.g. its group id. */
    private readonly name: string,
    private readonly logger: Logger,
    private readonly backoff: RestartBackoff = DEFAULT_RESTART_BACKOFF,
    private readonly timer: CommitTimer = unrefTimer,
  ) {
    this.delayMs = backoff.initialMs;
    this.availability = new ClientAvailability(name, logger);
    consumer.on(consumer.events.CRASH, (event) => this.crashed(event.payload));
    consumer.on(consumer.events.GROUP_JOIN, () => {
      this.delayMs = backoff.initialMs;
      this.availability.recovered();
    });
  }

  /** Starts the consumer (kafkajs's `run`); resolves once it has joined its group or crashed. */
  run(): Promise<void> {
    return this.consumer.run(this.config);
  }

  /** No more restarts; waits for one under way. Call before disconnecting the consumer. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelRestart?.();
    await this.restarting;
  }

  private crashed({ error, restart }: ConsumerCrash): void {
    if (this.stopped) return;
    this.availability.restarted();
    const firstOfOutage = this.availability.failed();
    if (restart) {
      // kafkajs has spent its retries (the broker is away) and restarts the consumer itself.
      this.logger[firstOfOutage ? 'warn' : 'debug'](
        { consumer: this.name, reason: error.message, restartInMs: kafkajsRestartDelay(error) },
        'consumer gave up after its retries; restarting it',
      );
      return;
    }
    this.logger.error(
      {
        consumer: this.name,
        reason: error.message,
        cause: rootCause(error).message,
        restartInMs: this.delayMs,
      },
      'consumer crashed on an error kafkajs does not restart after; restarting it',
    );
    this.schedule();
  }

  private schedule(): void {
    const delayMs = this.delayMs;
    this.delayMs = Math.min(this.delayMs * 2, this.backoff.maxMs);
    this.cancelRestart = this.timer.schedule(delayMs, () => {
      if (this.stopped) return;
      this.restarting = this.consumer.run(this.config).catch((error: Error) => {
        // kafkajs reports a failed start as a crash; this is for a run that throws instead.
        this.logger.error(
          { consumer: this.name, reason: error.message },
          'consumer restart failed; trying again',
        );
        if (!this.stopped) this.schedule();
      });
    });
  }
}

/** How long kafkajs waits before restarting a consumer that crashed on a retriable error: the crash's last backoff. */
function kafkajsRestartDelay(error: Error): number {
  return (error as { retryTime?: number }).retryTime ?? KAFKA_RETRY.initialRetryTime;
}

/** The innermost `cause` of an error: kafkajs wraps the error that decided a crash in one or two of its own. */
function rootCause(error: Error): Error {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? rootCause(cause) : error;
}
