import { DeadLetter } from '@switchyard/contracts';
import { FifoList } from './fifo-list';

/** The dead-letter topic's records, in memory and bounded: past `limit` the oldest is evicted and counted. */
export class DeadLetterIndex {
  private readonly letters = new FifoList<DeadLetter>();
  private evictedCount = 0;

  constructor(readonly limit: number) {}

  get size(): number {
    return this.letters.size;
  }

  get evicted(): number {
    return this.evictedCount;
  }

  add(letter: DeadLetter): void {
    this.letters.push(letter);
    while (this.letters.size > this.limit) {
      this.letters.shift();
      this.evictedCount += 1;
    }
  }

  /** Newest first, of one destination or all. */
  latest(destinationId: string | undefined, limit: number): DeadLetter[] {
    const found: DeadLetter[] = [];
    for (const letter of this.letters.newestFirst()) {
      if (destinationId !== undefined && letter.destinationId !== destinationId) continue;
      found.push(letter);
      if (found.length === limit) break;
    }
    return found;
  }
}
