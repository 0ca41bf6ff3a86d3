/** A first-in-first-out list: O(1) push and shift (Array#shift copies the whole array), newest-first iteration. */
export class FifoList<T> {
  private items: T[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  peek(): T | undefined {
    return this.items[this.head];
  }

  shift(): T | undefined {
    if (this.size === 0) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined as T;
    this.head += 1;
    // Gives the shifted slots back once they are most of the array.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  last(): T | undefined {
    return this.size === 0 ? undefined : this.items[this.items.length - 1];
  }

  *newestFirst(): Generator<T> {
    for (let i = this.items.length - 1; i >= this.head; i--) yield this.items[i];
  }

  oldestFirst(): T[] {
    return this.items.slice(this.head);
  }
}
