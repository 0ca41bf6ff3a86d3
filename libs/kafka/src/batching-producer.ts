import { traceSend } from '@switchyard/telemetry';
import type { Logger } from 'pino';
import { ClientAvailability } from './client-availability';
import { compressionFor } from './compression';
import { CompressionCodec, KafkaProducer, OutgoingMessage, TopicMessages } from './kafka-port';
import { MAX_PRODUCE_REQUEST_BYTES } from './request-size';

export interface OutgoingRecord {
  topic: string;
  key: string | null;
  /** null: a tombstone (compacted topics). */
  value: Buffer | string | null;
  /** Pins the record to a partition; otherwise the producer's partitioner picks one from the key. */
  partition?: number;
  headers?: Record<string, string | Buffer>;
}

export interface BatchingProducerOptions {
  /**
   * How long a record may wait for company while an earlier produce request is in flight (and
   * fewer than `maxInFlight` are). An idle producer never lingers: it sends at the end of the
   * current event-loop turn.
   */
  lingerMs: number;
  /** Send at once when this many records are waiting. */
  maxBatchRecords: number;
  /**
   * Bytes (keys and values) in one sendBatch. The broker refuses a record batch over its
   * `message.max.bytes` (1 MB by default), and kafkajs does not retry that, so batches stay
   * below it; one caller's records always go together, even when they alone are larger.
   */
  maxBatchBytes: number;
  /** sendBatch calls in flight at once; more waiting records just grow the next batch. */
  maxInFlight: number;
  /** For batches of at least `minCompressedBytes`; smaller ones go uncompressed. */
  compression: CompressionCodec;
  /**
   * MIN_COMPRESSED_BATCH_BYTES unless set: the bound that spares small batches a latency-sensitive
   * caller waits on. A caller that never waits (delivery's attempt records) compresses everything.
   */
  minCompressedBytes?: number;
  /**
   * How long a caller waits for its acknowledgement before `send` rejects with ProduceTimeoutError.
   * Records still waiting are withdrawn then; records already sent may still land. Unset: no bound.
   */
  timeoutMs?: number;
}

/**
 * A send was not acknowledged in time. `withdrawn`: none of its records went to a broker, and none
 * will. Otherwise they were on the wire and may still be written (a receiver de-duplicates them
 * by messageId).
 */
export class ProduceTimeoutError extends Error {
  constructor(
    readonly timeoutMs: number,
    readonly withdrawn: boolean,
  ) {
    super(
      `Kafka did not acknowledge within ${timeoutMs} ms; ${withdrawn ? 'the records were withdrawn before being sent' : 'the records were sent and may still be written'}`,
    );
    this.name = 'ProduceTimeoutError';
  }
}

/**
 * A produce request unanswered for this long is waiting in the client's retries (a broker away, a
 * leader moving), not on the wire: records handed over now would wait behind it.
 */
export const STUCK_SEND_MS = 1_000;

/** Names a producer in logs and metrics, for outage reporting (ClientAvailability). */
export interface ProducerIdentity {
  name: string;
  logger: Logger;
}

export const DEFAULT_BATCHING: BatchingProducerOptions = {
  lingerMs: 2,
  maxBatchRecords: 5_000,
  maxBatchBytes: MAX_PRODUCE_REQUEST_BYTES,
  maxInFlight: 4,
  compression: CompressionCodec.None,
};

interface Waiter {
  records: OutgoingRecord[];
  bytes: number;
  resolve: () => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
  settled?: boolean;
}

/**
 * kafkajs has no linger: each send() is its own produce request. This gathers the records of
 * concurrent callers into few `sendBatch` calls (acks = all) and settles each caller's promise
 * when the broker has acknowledged its records, so a caller that awaits `send` knows its
 * records are durable.
 *
 * Batching waits only where there is a queue, as Nagle's algorithm does: records handed over
 * while no request is in flight go out at the end of the current event-loop turn (with whatever
 * else that turn handed over), never after a timer; records arriving while requests are in
 * flight gather for the next one, for at most `lingerMs` or until a request completes.
 */
export class BatchingProducer {
  private waiting: Waiter[] = [];
  private waitingRecords = 0;
  private waitingBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private inFlight = 0;
  /** When each produce request in flight was sent. */
  private readonly sentAt = new Set<{ at: number }>();
  private readonly idle = new Set<() => void>();
  private readonly availability: ClientAvailability | undefined;
  /** When a produce request last succeeded. */
  private lastWrittenAt = -Infinity;

  constructor(
    private readonly producer: Pick<KafkaProducer, 'sendBatch'>,
    private readonly options: BatchingProducerOptions = DEFAULT_BATCHING,
    private readonly identity?: ProducerIdentity,
    private readonly now: () => number = Date.now,
  ) {
    this.availability = identity && new ClientAvailability(identity.name, identity.logger, now);
  }

  /**
   * Records handed to `send` now would go to a broker at once: no produce request has been
   * waiting in the client's retries for longer than STUCK_SEND_MS. Not "the last send
   * succeeded": a service that stops being sent traffic when unready would never learn that.
   */
  get writing(): boolean {
    const now = this.now();
    for (const { at } of this.sentAt) if (now - at > STUCK_SEND_MS) return false;
    return true;
  }

  send(records: OutgoingRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    const bytes = records.reduce((sum, r) => sum + recordBytes(r), 0);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { records, bytes, resolve, reject };
      const { timeoutMs } = this.options;
      if (timeoutMs !== undefined) waiter.timer = setTimeout(() => this.expire(waiter, timeoutMs), timeoutMs);
      this.waiting.push(waiter);
      this.waitingRecords += records.length;
      this.waitingBytes += bytes;
      this.scheduleDispatch();
    });
  }

  /** Resolves once everything handed to `send` so far has been settled. */
  async drain(): Promise<void> {
    if (this.waiting.length > 0) this.dispatch();
    while (this.inFlight > 0 || this.waiting.length > 0) {
      await new Promise<void>((resolve) => this.idle.add(resolve));
      if (this.waiting.length > 0) this.dispatch();
    }
  }

  /** Withdraws a waiter's records if they are still waiting, and rejects it either way. */
  private expire(waiter: Waiter, timeoutMs: number): void {
    const index = this.waiting.indexOf(waiter);
    if (index >= 0) {
      this.waiting.splice(index, 1);
      this.waitingRecords -= waiter.records.length;
      this.waitingBytes -= waiter.bytes;
    }
    settle(waiter, new ProduceTimeoutError(timeoutMs, index >= 0));
  }

  /**
   * A full batch goes at once. Otherwise an idle producer sends at the end of this event-loop
   * turn, so callers handing over records in the same turn share one request; a producer with a
   * request in flight lingers, and one at `maxInFlight` leaves the records to the next request
   * that completes.
   */
  private scheduleDispatch(): void {
    const full =
      this.waitingRecords >= this.options.maxBatchRecords || this.waitingBytes >= this.options.maxBatchBytes;
    if (full) this.dispatch();
    else if (this.inFlight === 0) this.immediate ??= setImmediate(() => this.dispatch());
    else if (this.inFlight < this.options.maxInFlight)
      this.timer ??= setTimeout(() => this.dispatch(), this.options.lingerMs);
  }

  private dispatch(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    clearImmediate(this.immediate);
    this.immediate = undefined;
    while (this.waiting.length > 0 && this.inFlight < this.options.maxInFlight)
      this.sendOne(this.takeBatch());
  }

  /** The oldest waiters whose records fit the byte and record bounds (at least one waiter). */
  private takeBatch(): { waiters: Waiter[]; bytes: number } {
    let records = 0;
    let bytes = 0;
    let count = 0;
    for (const w of this.waiting) {
      const over =
        records + w.records.length > this.options.maxBatchRecords ||
        bytes + w.bytes > this.options.maxBatchBytes;
      if (count > 0 && over) break;
      records += w.records.length;
      bytes += w.bytes;
      count += 1;
    }
    const waiters = this.waiting.splice(0, count);
    this.waitingRecords -= records;
    this.waitingBytes -= bytes;
    return { waiters, bytes };
  }

  private sendOne({ waiters, bytes }: { waiters: Waiter[]; bytes: number }): void {
    this.inFlight += 1;
    const sent = { at: this.now() };
    this.sentAt.add(sent);
    const request = topicMessages(waiters.map((w) => w.records));
    traceSend(request, () =>
      this.producer.sendBatch({
        topicMessages: request,
        acks: -1,
        compression: compressionFor(this.options.compression, bytes, this.options.minCompressedBytes),
      }),
    )
      .then(
        () => {
          this.lastWrittenAt = this.now();
          this.availability?.recovered();
          waiters.forEach((w) => settle(w));
        },
        (error: Error) => {
          this.failed(error, sent.at);
          waiters.forEach((w) => settle(w, error));
        },
      )
      .finally(() => {
        this.inFlight -= 1;
        this.sentAt.delete(sent);
        if (this.waiting.length > 0) this.dispatch();
        for (const resolve of this.idle) resolve();
        this.idle.clear();
      });
  }

  /**
   * A produce request failed after the client's retries: the first of an outage is a warning. One
   * sent before a later request succeeded is old news (its last try came before the recovery).
   */
  private failed(error: Error, sentAt: number): void {
    if (!this.availability || !this.identity) return;
    const firstOfOutage = sentAt >= this.lastWrittenAt && this.availability.failed(sentAt);
    this.identity.logger[firstOfOutage ? 'warn' : 'debug'](
      { producer: this.identity.name, reason: error.message },
      'producer could not write after its retries; each new send tries again at once',
    );
  }
}

/** Settles a waiter once: a waiter that timed out has already been rejected, and its batch's answer is no longer news. */
function settle(waiter: Waiter, error?: Error): void {
  if (waiter.settled) return;
  waiter.settled = true;
  clearTimeout(waiter.timer);
  if (error) waiter.reject(error);
  else waiter.resolve();
}

/** Key and value bytes of a record: what counts towards a produce request's size. */
export function recordBytes(record: OutgoingRecord): number {
  return byteLength(record.key) + byteLength(record.value);
}

/** The records of several callers as one produce request's topic groups, in order. */
export function topicMessages(recordLists: readonly OutgoingRecord[][]): TopicMessages[] {
  const byTopic = new Map<string, OutgoingMessage[]>();
  for (const records of recordLists) {
    for (const r of records) {
      let messages = byTopic.get(r.topic);
      if (!messages) byTopic.set(r.topic, (messages = []));
      messages.push({ key: r.key, value: r.value, partition: r.partition, headers: r.headers });
    }
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

function byteLength(value: Buffer | string | null): number {
  if (value === null) return 0;
  return typeof value === 'string' ? Buffer.byteLength(value) : value.length;
}
