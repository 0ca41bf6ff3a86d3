import type { Logger } from 'pino';
import { Clock } from '../clock';

/** Counts the jobs running, reports them to a gauge, and lets shutdown wait for them within a bound. */
export class InFlightJobs {
  private running = 0;
  private readonly drainWaiters = new Set<() => void>();

  constructor(
    private readonly clock: Clock,
    private readonly gauge: { inc(): void; dec(): void },
    private readonly logger: Logger,
  ) {}

  get count(): number {
    return this.running;
  }

  /** Runs `onDone` when `job` resolves. A job that rejects was abandoned at shutdown: it stays unfinished, so its offset is not committed. */
  track(job: Promise<unknown>, onDone: () => void): void {
    this.running += 1;
    this.gauge.inc();
    job
      .then(onDone, (error: Error) => {
        this.logger.warn({ reason: error.message }, 'job abandoned at shutdown before its outcome was written');
      })
      .finally(() => {
        this.running -= 1;
        this.gauge.dec();
        if (this.running === 0) this.drainWaiters.forEach((wake) => wake());
      });
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
}
