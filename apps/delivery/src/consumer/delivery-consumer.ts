import { Consumer, EachBatchPayload, IHeaders, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { TopicNames } from '@switchyard/contracts';
import { headerString } from '@switchyard/kafka';
import { Clock } from '../clock';
import { DeliveryWorker } from '../pipeline/delivery-worker';
import { readRetryState } from '../retry/retry-state';
import { DeliveryMetrics } from '../delivery-metrics';
import { PartitionProgress } from './partition-progress';

export interface DeliveryConsumerOptions {
  groupId: string;
  /** Number of retry topics (one per entry of the retry schedule). */
  retryTiers: number;
  maxInFlightPerPartition: number;
  /** Record bytes of a partition's unfinished jobs; the partition also pauses at this bound. */
  maxInFlightBytesPerPartition: number;
  commitIntervalMs: number;
  shutdownGraceMs: number;
  sessionTimeoutMs: number;
}

/**
 * Feeds the deliveries topic and every retry topic through the worker with kafkajs directly
 * (Nest's Kafka transport hides the per-partition pause, seek and manual commits this needs).
 *
 * - Many jobs run at once per partition, up to `maxInFlightPerPartition`; at the bound the
 *   partition pauses and resumes as jobs finish. Nothing in a handler waits.
 * - Offsets are committed on a timer, and only below the lowest unfinished job.
 * - A retry topic's partition is paused until its head record is due (seek back to it, resume
 *   on a timer): no sleeping in the handler, no polling.
 */
export class DeliveryConsumer {
  private readonly consumer: Consumer;
  private progress = new Map<string, PartitionProgress>();
  /** Partitions paused by us: the timer that resumes them, or 'capacity' (resumed when jobs finish). */
  private readonly held = new Map<string, { topic: string; partition: number; cancel?: () => void }>();
  private running = 0;
  private readonly drainWaiters = new Set<() => void>();
  private stopping = false;
  private cancelCommitTimer: (() => void) | undefined;
  private committing: Promise<void> = Promise.resolve();

  constructor(
    kafka: Kafka,
    private readonly worker: DeliveryWorker,
    private readonly topics: TopicNames,
    private readonly options: DeliveryConsumerOptions,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly metrics: DeliveryMetrics,
  ) {
    // maxWaitTimeInMs bounds how long a fetch idles on an empty partition: it is added to the latency of a quiet topic.
    this.consumer = kafka.consumer({
      groupId: options.groupId,
      maxWaitTimeInMs: 100,
      // kafkajs's default is 10 MB per fetch; the response and the records decoded from it are
      // alive together while jobs are copied out, so a smaller fetch keeps peak memory down.
      // 2 MB is still ~3,000 jobs per fetch, more than a second of this service's throughput.
      maxBytes: 2 * 1024 * 1024,
      allowAutoTopicCreation: false,
      sessionTimeout: options.sessionTimeoutMs,
      heartbeatInterval: Math.floor(options.sessionTimeoutMs / 10),
    });
    // A new generation re-reads from the committed offsets: what was in flight comes again (at-least-once).
    this.consumer.on(this.consumer.events.GROUP_JOIN, () => this.resetAfterRebalance());
  }

  /** Tells `listener` when this instance joins the group (true) and when it stops or crashes (false): readiness. */
  onMembershipChange(listener: (joined: boolean) => void): void {
    const { GROUP_JOIN, CRASH, STOP, DISCONNECT } = this.consumer.events;
    this.consumer.on(GROUP_JOIN, () => listener(true));
    for (const event of [CRASH, STOP, DISCONNECT]) this.consumer.on(event, () => listener(false));
  }

  private get subscribedTopics(): string[] {
    return [this.topics.deliveries, ...Array.from({ length: this.options.retryTiers }, (_, i) => this.topics.retry(i + 1))];
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    // fromBeginning: a group that has never committed must not skip the jobs written before it first started.
    await this.consumer.subscribe({ topics: this.subscribedTopics, fromBeginning: true });
    await this.consumer.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: (payload) => this.takeBatch(payload) });
    this.scheduleCommit();
  }

  /** Stop fetching, let in-flight jobs finish within the grace bound, commit what finished, leave the group. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.consumer.pause(this.subscribedTopics.map((topic) => ({ topic })));
    for (const hold of this.held.values()) hold.cancel?.();
    const drained = await this.drained(this.options.shutdownGraceMs);
    if (!drained) this.logger.warn({ unfinished: this.running }, 'shutdown grace ran out; unfinished jobs will be delivered again after restart');
    this.worker.stop();
    this.cancelCommitTimer?.();
    await this.commit();
    await this.consumer.disconnect();
  }

  private async takeBatch({ batch, resolveOffset, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const { topic, partition } = batch;
    const key = `${topic}:${partition}`;
    const progress = this.progressOf(key);
    const isRetryTopic = topic !== this.topics.deliveries;
    for (const message of batch.messages) {
      if (this.stopping || !isRunning() || isStale()) return;
      if (!this.hasRoom(progress)) return this.hold(topic, partition, message.offset);
      if (isRetryTopic) {
        const waitMs = (readRetryState(message.headers).notBefore ?? 0) - this.clock.now();
        if (waitMs > 0) return this.hold(topic, partition, message.offset, waitMs);
      }
      const offset = Number(message.offset);
      progress.take(offset, (message.key?.length ?? 0) + (message.value?.length ?? 0));
      resolveOffset(message.offset);
      this.track(
        this.worker.process({ topic, partition, offset: message.offset, key: detach(message.key), value: detach(message.value), headers: detachHeaders(message.headers) }),
        () => {
          progress.finish(offset);
          this.resumeIfRoom(key, progress);
        },
      );
    }
  }

  private track(job: Promise<unknown>, onDone: () => void): void {
    this.running += 1;
    this.metrics.inFlight.inc();
    job
      .then(onDone, (error: Error) => {
        // Left unfinished on purpose: the commit stays below it and the job is read again after restart.
        this.logger.warn({ reason: error.message }, 'job abandoned at shutdown before its outcome was written');
      })
      .finally(() => {
        this.running -= 1;
        this.metrics.inFlight.dec();
        if (this.running === 0) this.drainWaiters.forEach((wake) => wake());
      });
  }

  /** Pause the partition and rewind it to `offset`, the first record not taken; resume after `resumeAfterMs`, or when jobs finish. */
  private hold(topic: string, partition: number, offset: string, resumeAfterMs?: number): void {
    const key = `${topic}:${partition}`;
    this.consumer.pause([{ topic, partitions: [partition] }]);
    this.consumer.seek({ topic, partition, offset });
    this.held.get(key)?.cancel?.();
    const cancel = resumeAfterMs === undefined ? undefined : this.clock.schedule(resumeAfterMs, () => this.resume(key));
    this.held.set(key, { topic, partition, cancel });
  }

  private resumeIfRoom(key: string, progress: PartitionProgress): void {
    const hold = this.held.get(key);
    if (hold && !hold.cancel && this.hasRoom(progress)) this.resume(key);
  }

  private hasRoom(progress: PartitionProgress): boolean {
    return progress.hasRoom(this.options.maxInFlightPerPartition, this.options.maxInFlightBytesPerPartition);
  }

  private resume(key: string): void {
    const hold = this.held.get(key);
    if (!hold || this.stopping) return;
    this.held.delete(key);
    hold.cancel?.();
    this.consumer.resume([{ topic: hold.topic, partitions: [hold.partition] }]);
  }

  private resetAfterRebalance(): void {
    this.progress = new Map();
    for (const key of [...this.held.keys()]) this.resume(key);
  }

  private progressOf(key: string): PartitionProgress {
    let progress = this.progress.get(key);
    if (!progress) this.progress.set(key, (progress = new PartitionProgress()));
    return progress;
  }

  private scheduleCommit(): void {
    this.cancelCommitTimer = this.clock.schedule(this.options.commitIntervalMs, () => {
      void this.commit().finally(() => {
        if (!this.stopping) this.scheduleCommit();
      });
    });
  }

  /** Commits every partition whose safe offset moved; one commit at a time. */
  private commit(): Promise<void> {
    this.committing = this.committing.then(async () => {
      const due = [...this.progress].flatMap(([key, progress]) => {
        const offset = progress.commitDue();
        if (offset === undefined) return [];
        const separator = key.lastIndexOf(':');
        return [{ topic: key.slice(0, separator), partition: Number(key.slice(separator + 1)), offset, progress }];
      });
      if (due.length === 0) return;
      try {
        await this.consumer.commitOffsets(due.map(({ topic, partition, offset }) => ({ topic, partition, offset: String(offset) })));
        due.forEach(({ progress, offset }) => progress.markCommitted(offset));
      } catch (error) {
        this.logger.warn({ reason: (error as Error).message }, 'offset commit failed; will try again');
      }
    });
    return this.committing;
  }

  private drained(timeoutMs: number): Promise<boolean> {
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

/**
 * kafkajs hands out slices of the whole fetch response. A job waiting on a slow destination would
 * keep that response (up to a megabyte) alive; a copy of its own bytes keeps only those.
 */
function detach(buffer: Buffer | null): Buffer | null {
  return buffer === null ? null : Buffer.from(buffer);
}

/**
 * Headers as strings: each Buffer kafkajs hands out is a slice of the fetch response, and a copy
 * of a few bytes would still pin an 8 KB pool slab for as long as its job waits.
 */
function detachHeaders(headers: IHeaders | undefined): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const name in headers) {
    const value = headerString(headers, name);
    if (value !== undefined) copy[name] = value;
  }
  return copy;
}
