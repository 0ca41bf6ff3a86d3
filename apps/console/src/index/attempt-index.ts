import { DeliveryAttempt } from '@switchyard/contracts';
import { FifoList } from './fifo-list';

/** An attempt as the console shows it: `at` as ISO 8601, beside the epoch ms the filters compare. */
export interface IndexedAttempt extends Omit<DeliveryAttempt, 'at'> {
  at: string;
  atMs: number;
}

/** One message's attempts across its destinations, URLs and retries, oldest first. */
export interface MessageTimeline extends Pick<
  DeliveryAttempt,
  'messageId' | 'sourceId' | 'userId' | 'anonymousId' | 'type' | 'event'
> {
  attempts: IndexedAttempt[];
}

export interface AttemptFilter {
  outcome?: string;
  status?: number;
  /** At or after (epoch ms). */
  from?: number;
  /** Before (epoch ms). */
  to?: number;
}

/**
 * The attempts the console knows, in memory and bounded: at most `limit` records; past it the
 * oldest is evicted from every lookup and counted. Records arrive in order, so the oldest record
 * overall is also the oldest of its message, user and destination, and eviction is O(1).
 */
export class AttemptIndex {
  private readonly all = new FifoList<IndexedAttempt>();
  private readonly byMessage = new Map<string, FifoList<IndexedAttempt>>();
  private readonly byUser = new Map<string, FifoList<IndexedAttempt>>();
  private readonly byDestination = new Map<string, FifoList<IndexedAttempt>>();
  private evictedCount = 0;

  constructor(readonly limit: number) {}

  get size(): number {
    return this.all.size;
  }

  get evicted(): number {
    return this.evictedCount;
  }

  add(attempt: DeliveryAttempt): void {
    const entry: IndexedAttempt = { ...attempt, at: new Date(attempt.at).toISOString(), atMs: attempt.at };
    this.all.push(entry);
    for (const [map, key] of this.keysOf(entry)) {
      let list = map.get(key);
      if (!list) map.set(key, (list = new FifoList()));
      list.push(entry);
    }
    while (this.all.size > this.limit) this.evictOldest();
  }

  message(messageId: string): MessageTimeline[] {
    const attempts = this.byMessage.get(messageId)?.oldestFirst() ?? [];
    return attempts.length === 0 ? [] : [timeline(attempts)];
  }

  /** The user's messages (userId or anonymousId), newest first. */
  messagesOfUser(userKey: string, limit: number): MessageTimeline[] {
    const ids: string[] = [];
    for (const attempt of this.byUser.get(userKey)?.newestFirst() ?? []) {
      if (!ids.includes(attempt.messageId)) ids.push(attempt.messageId);
      if (ids.length === limit) break;
    }
    return ids.flatMap((id) => this.message(id));
  }

  destinationIds(): string[] {
    return [...this.byDestination.keys()];
  }

  /** A destination's attempts matching `filter`, newest first. */
  attemptsOf(destinationId: string, filter: AttemptFilter, limit: number): IndexedAttempt[] {
    const found: IndexedAttempt[] = [];
    for (const a of this.byDestination.get(destinationId)?.newestFirst() ?? []) {
      if (filter.to !== undefined && !(a.atMs < filter.to)) continue;
      if (filter.from !== undefined && !(a.atMs >= filter.from)) continue;
      if (filter.outcome !== undefined && a.outcome !== filter.outcome) continue;
      if (filter.status !== undefined && a.status !== filter.status) continue;
      found.push(a);
      if (found.length === limit) break;
    }
    return found;
  }

  /** One job's attempts (a message to one destination), oldest first. */
  jobAttempts(messageId: string, destinationId: string): IndexedAttempt[] {
    return (this.byMessage.get(messageId)?.oldestFirst() ?? []).filter(
      (a) => a.destinationId === destinationId,
    );
  }

  private keysOf(entry: IndexedAttempt): Array<[Map<string, FifoList<IndexedAttempt>>, string]> {
    const keys: Array<[Map<string, FifoList<IndexedAttempt>>, string]> = [
      [this.byMessage, entry.messageId],
      [this.byDestination, entry.destinationId],
    ];
    if (entry.userId) keys.push([this.byUser, entry.userId]);
    if (entry.anonymousId && entry.anonymousId !== entry.userId) keys.push([this.byUser, entry.anonymousId]);
    return keys;
  }

  private evictOldest(): void {
    const oldest = this.all.shift();
    if (!oldest) return;
    for (const [map, key] of this.keysOf(oldest)) {
      const list = map.get(key);
      if (list?.peek() === oldest) list.shift();
      if (list?.size === 0) map.delete(key);
    }
    this.evictedCount += 1;
  }
}

function timeline(attempts: IndexedAttempt[]): MessageTimeline {
  const first = attempts[0];
  const sorted = [...attempts].sort((a, b) => a.atMs - b.atMs);
  return {
    messageId: first.messageId,
    sourceId: first.sourceId,
    userId: first.userId,
    anonymousId: first.anonymousId,
    type: first.type,
    event: first.event,
    attempts: sorted,
  };
}
