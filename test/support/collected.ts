/** Items that arrive over time (Kafka records, webhooks) and a way to await them without polling. */
export class Collected<T> {
  readonly items: T[] = [];
  private readonly waiters: Array<() => void> = [];

  add(item: T): void {
    this.items.push(item);
    this.waiters.splice(0).forEach((wake) => wake());
  }

  /** Resolves with the items matching `filter` once there are at least `count` of them. */
  async waitFor(count: number, filter: (item: T) => boolean, timeoutMs: number, what: string): Promise<T[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const matching = this.items.filter(filter);
      if (matching.length >= count) return matching;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`expected ${count} ${what}, saw ${matching.length} after ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}
