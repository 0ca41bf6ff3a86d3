import { batchBody, nextBatchSize } from './batch-body';
import type { DeliveryError } from './errors';
import type { EncodedMessage } from './message-encoding';

interface QueuedMessage extends EncodedMessage {
  /** Order of arrival; a flush waits for every message up to the last one queued before it. */
  seq: number;
}

interface InFlightBatch {
  firstSeq: number;
  size: number;
}

interface FlushWaiter {
  throughSeq: number;
  failures: DeliveryError[];
  resolve: (failures: DeliveryError[]) => void;
}

export interface DispatcherSettings {
  flushAt: number;
  flushAfterMs: number;
  maxInFlightRequests: number;
  maxBatchBytes: number;
}

export type DeliverBatch = (
  messages: readonly EncodedMessage[],
  body: string,
) => Promise<DeliveryError | undefined>;

/**
 * The in-memory queue and its flush triggers. A batch leaves when `flushAt` messages are waiting,
 * when the oldest waiting message has waited `flushAfterMs`, or when flush() asks; at most
 * `maxInFlightRequests` batches are on the wire at once, the rest wait their turn in order.
 *
 * Everything here runs on the one JavaScript thread, so any number of concurrent callers see the
 * queue change one whole call at a time; no locking is needed.
 */
export class BatchDispatcher {
  private pending: QueuedMessage[] = [];
  private readonly inFlight = new Set<InFlightBatch>();
  private inFlightMessages = 0;
  private lastSeq = 0;
  /** Messages up to this one go out without waiting for a full batch (set by flush() and the timer). */
  private drainThroughSeq = 0;
  private timer: NodeJS.Timeout | undefined;
  private waiters: FlushWaiter[] = [];

  constructor(
    private readonly settings: DispatcherSettings,
    private readonly deliver: DeliverBatch,
    private readonly reportFailure: (failure: DeliveryError) => void,
  ) {}

  /** Messages accepted and not yet settled (waiting or in flight): what the queue bound counts. */
  get unsettled(): number {
    return this.pending.length + this.inFlightMessages;
  }

  enqueue(message: EncodedMessage): void {
    this.lastSeq += 1;
    this.pending.push({
      messageId: message.messageId,
      json: message.json,
      bytes: message.bytes,
      seq: this.lastSeq,
    });
    this.pump();
    // The timer is ref'd on purpose: a program that ends without close() still sends its last calls.
    if (this.pending.length > 0 && !this.timer)
      this.timer = setTimeout(() => this.onTimer(), this.settings.flushAfterMs);
  }

  /** Sends everything queued so far; resolves once all of it is settled, with the batches that failed. */
  flush(): Promise<DeliveryError[]> {
    const throughSeq = this.lastSeq;
    this.drainThroughSeq = throughSeq;
    this.pump();
    if (this.isSettled(throughSeq)) return Promise.resolve([]);
    return new Promise((resolve) => this.waiters.push({ throughSeq, failures: [], resolve }));
  }

  private onTimer(): void {
    this.timer = undefined;
    this.drainThroughSeq = this.lastSeq;
    this.pump();
  }

  private pump(): void {
    const { flushAt, maxInFlightRequests, maxBatchBytes } = this.settings;
    while (
      this.inFlight.size < maxInFlightRequests &&
      this.pending.length > 0 &&
      (this.pending.length >= flushAt || this.pending[0].seq <= this.drainThroughSeq)
    ) {
      this.send(this.pending.splice(0, nextBatchSize(this.pending, flushAt, maxBatchBytes)));
    }
    if (this.pending.length === 0 && this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  private send(batch: QueuedMessage[]): void {
    const flight: InFlightBatch = { firstSeq: batch[0].seq, size: batch.length };
    this.inFlight.add(flight);
    this.inFlightMessages += flight.size;
    void this.deliver(batch, batchBody(batch, new Date())).then((failure) => this.settle(flight, failure));
  }

  private settle(flight: InFlightBatch, failure: DeliveryError | undefined): void {
    this.inFlight.delete(flight);
    this.inFlightMessages -= flight.size;
    if (failure)
      for (const waiter of this.waiters)
        if (flight.firstSeq <= waiter.throughSeq) waiter.failures.push(failure);
    this.pump();
    const [done, waiting] = partition(this.waiters, (w) => this.isSettled(w.throughSeq));
    this.waiters = waiting;
    for (const waiter of done) waiter.resolve(waiter.failures);
    // Last, so a listener that throws cannot leave the queue half-updated.
    if (failure) this.reportFailure(failure);
  }

  private isSettled(throughSeq: number): boolean {
    if (this.pending.length > 0 && this.pending[0].seq <= throughSeq) return false;
    for (const flight of this.inFlight) if (flight.firstSeq <= throughSeq) return false;
    return true;
  }
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}
