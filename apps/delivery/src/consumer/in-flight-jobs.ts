import type { Logger } from 'pino';
import { Clock } from '../clock';

/** How long a job that failed without a durable outcome waits before it runs again. */
const RERUN_DELAY_MS = 1_000;

/**
 * Counts the jobs running, reports them to a gauge, runs again a job that failed before its
 * outcome was durable, and lets shutdown wait for them within a bound.
 */
export class InFlightJobs {
  private running = 0;
  private closed = false;
  private readonly drainWaiters = new Set<() => void>();

  constructor(
    private readonly clock: Clock,
    private readonly gauge: { inc(): void; dec(): void },
    private readonly logger: Logger,
  ) {}

  get count(): number {
    return this.running;
  }

  /**
   * Runs `start`, then `onDone` once its promise resolves. The worker rejects only when it is
   * stopped; a job that rejects before `close` (a failure the worker did not absorb) is logged and
   * run again after a pause rather than left unfinished, where it would hold its partition's commit
   * point until a rebalance. After `close` it is left unfinished: its offset is not committed, so
   * it is delivered again after the restart.
   */
  track(start: () => Promise<unknown>, onDone: () => void): void {
    this.running += 1;
    this.gauge.inc();
    this.attempt(start, onDone);
  }

  /** From now on a job that rejects is abandoned (shutdown). */
  close(): void {
    this.closed = true;
  }

  /** Resolves true once no job runs, or false when `timeoutMs` passes first. */
  drained(timeoutMs: number): Promise<boolean> {
    if (this.running === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = () => {
        cancel();
        this.drainWaiters.delete(wake);
        resolve(true);
      };
      const cancel = this.clock.schedule(timeoutMs, () => {
        this.drainWaiters.delete(wake);
        resolve(false);
      });
      this.drainWaiters.add(wake);
    });
  }

  private attempt(start: () => Promise<unknown>, onDone: () => void): void {
    start().then(
      () => {
        try {
          onDone();
        } finally {
          this.ended();
        }
      },
      (error: Error) => {
        if (this.closed) return this.abandon(error);
        this.logger.error(
          { reason: error.message },
          'job failed before its outcome was written; running it again',
        );
        this.clock.schedule(RERUN_DELAY_MS, () =>
          this.closed ? this.abandon(error) : this.attempt(start, onDone),
        );
      },
    );
  }

  private abandon(error: Error): void {
    this.logger.warn({ reason: error.message }, 'job abandoned at shutdown before its outcome was written');
    this.ended();
  }

  private ended(): void {
    this.running -= 1;
    this.gauge.dec();
    if (this.running === 0) this.drainWaiters.forEach((wake) => wake());
  }
}
