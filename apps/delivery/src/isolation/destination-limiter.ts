/**
 * Bounds concurrent requests per destination. Jobs over the bound wait in a FIFO here, not in
 * Kafka, so jobs for other destinations on the same partition keep going.
 */
export class DestinationLimiter {
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(private readonly maxPerDestination: number) {}

  /** Runs `task` once the destination has a free slot. */
  async run<T>(destinationId: string, task: () => Promise<T>): Promise<T> {
    await this.acquire(destinationId);
    try {
      return await task();
    } finally {
      this.release(destinationId);
    }
  }

  inFlight(destinationId: string): number {
    return this.active.get(destinationId) ?? 0;
  }

  queued(destinationId: string): number {
    return this.waiting.get(destinationId)?.length ?? 0;
  }

  private acquire(destinationId: string): Promise<void> {
    const active = this.inFlight(destinationId);
    if (active < this.maxPerDestination) {
      this.active.set(destinationId, active + 1);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const queue = this.waiting.get(destinationId) ?? [];
      queue.push(resolve);
      this.waiting.set(destinationId, queue);
    });
  }

  /** Hands the slot straight to the next waiter, so the count never dips and lets a newcomer jump the queue. */
  private release(destinationId: string): void {
    const queue = this.waiting.get(destinationId);
    const next = queue?.shift();
    if (queue?.length === 0) this.waiting.delete(destinationId);
    if (next) return next();
    const active = this.inFlight(destinationId) - 1;
    if (active > 0) this.active.set(destinationId, active);
    else this.active.delete(destinationId);
  }
}
