/**
 * Bounds concurrent requests per destination. Jobs over the bound wait in a FIFO here, not in
 * Kafka, so jobs for other destinations on the same partition keep going.
 */
export class DestinationLimiter {
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, WaitQueue>();

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
    return this.waiting.get(destinationId)?.size ?? 0;
  }

  private acquire(destinationId: string): Promise<void> {
    const active = this.inFlight(destinationId);
    if (active < this.maxPerDestination) {
      this.active.set(destinationId, active + 1);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let queue = this.waiting.get(destinationId);
      if (!queue) this.waiting.set(destinationId, (queue = new WaitQueue()));
      queue.push(resolve);
    });
  }

  /** Hands the slot straight to the next waiter, so the count never dips and lets a newcomer jump the queue. */
  private release(destinationId: string): void {
    const queue = this.waiting.get(destinationId);
    const next = queue?.shift();
    if (queue?.size === 0) this.waiting.delete(destinationId);
    if (next) return next();
    const active = this.inFlight(destinationId) - 1;
    if (active > 0) this.active.set(destinationId, active);
    else this.active.delete(destinationId);
  }
}

/**
 * A FIFO of waiters. Array#shift moves every element behind the head, and a destination that
 * stops answering gathers thousands of waiters, so the head is an index instead; the consumed
 * front is cut off once it is most of the array.
 */
class WaitQueue {
  private items: Array<(() => void) | undefined> = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: () => void): void {
    this.items.push(item);
  }

  shift(): (() => void) | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head];
    // A resolved waiter's closure holds its job; let it go now, not at the next cut.
    this.items[this.head++] = undefined;
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
