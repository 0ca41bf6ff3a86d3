import { FifoList } from './fifo-list';

/** A call as the live debugger shows it: what ingest wrote to the events topic. */
export interface SampledCall {
  sourceId: string;
  /** The call as ingest accepted it (messageId, type, receivedAt, …). */
  call: Record<string, unknown>;
}

/**
 * The last `perSource` calls of each configured source, in memory. Calls of sources the
 * workspace does not know are not kept (anything may write to the topic; memory stays bounded
 * by the configuration); past `perSource` the oldest call of that source is evicted and counted.
 */
export class CallSample {
  private readonly bySource = new Map<string, FifoList<SampledCall>>();
  private evictedCount = 0;

  constructor(
    readonly perSource: number,
    private readonly isKnownSource: (sourceId: string) => boolean,
  ) {}

  get evicted(): number {
    return this.evictedCount;
  }

  get size(): number {
    let total = 0;
    for (const list of this.bySource.values()) total += list.size;
    return total;
  }

  /** Keeps the call; false when its source is unknown. */
  add(sampled: SampledCall): boolean {
    if (!this.isKnownSource(sampled.sourceId)) return false;
    let list = this.bySource.get(sampled.sourceId);
    if (!list) this.bySource.set(sampled.sourceId, (list = new FifoList()));
    list.push(sampled);
    if (list.size > this.perSource) {
      list.shift();
      this.evictedCount += 1;
    }
    return true;
  }

  /** The source's last calls, newest first. */
  latest(sourceId: string, limit: number): SampledCall[] {
    const found: SampledCall[] = [];
    for (const sampled of this.bySource.get(sourceId)?.newestFirst() ?? []) {
      found.push(sampled);
      if (found.length === limit) break;
    }
    return found;
  }
}
