import type { Logger } from 'pino';
import { decodeNotBefore, headerString, TopicNames } from '@switchyard/contracts';
import {
  BatchPayload,
  ConsumedHeaders,
  ConsumerRestarter,
  KafkaClient,
  KafkaConsumer,
  OffsetCommitter,
} from '@switchyard/kafka';
import { Clock } from '../clock';
import { DeliveryWorker } from '../pipeline/delivery-worker';
import { DeliveryMetrics } from '../delivery-metrics';
import { InFlightJobs } from './in-flight-jobs';
import { PartitionHolds } from './partition-holds';
import { PartitionProgress } from './partition-progress';
import { ProgressBook } from './progress-book';

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
 * Feeds the deliveries topic and every retry topic through the worker with the Kafka client directly
 * (Nest's Kafka transport hides the per-partition pause, seek and manual commits this needs).
 *
 * - Many jobs run at once per partition, up to `maxInFlightPerPartition`; at the bound the
 *   partition pauses and resumes as jobs finish. Nothing in a handler waits.
 * - Offsets are committed on a timer (OffsetCommitter), and only below the lowest unfinished
 *   job (ProgressBook).
 * - A retry topic's partition is paused until its head record is due (seek back to it, resume
 *   on a timer): no sleeping in the handler, no polling.
 */
export class DeliveryConsumer {
  private readonly consumer: KafkaConsumer;
  private readonly progress = new ProgressBook();
  private readonly holds: PartitionHolds;
  private readonly jobs: InFlightJobs;
  private readonly committer: OffsetCommitter;
  private readonly restarter: ConsumerRestarter;
  private stopping = false;

  constructor(
    kafka: KafkaClient,
    private readonly worker: DeliveryWorker,
    private readonly topics: TopicNames,
    private readonly options: DeliveryConsumerOptions,
    private readonly clock: Clock,
    private readonly logger: Logger,
    metrics: DeliveryMetrics,
  ) {
    // maxWaitTimeInMs bounds how long a fetch idles on an empty partition: it is added to the latency of a quiet topic.
    this.consumer = kafka.consumer({
      groupId: options.groupId,
      maxWaitTimeInMs: 100,
      // kafkajs's default is 10 MB per fetch; the response and the records decoded from it are
      // alive together while jobs are copied out, so a smaller fetch keeps peak memory down.
      // 2 MB still holds thousands of jobs per fetch, more than a second of this service's work.
      maxBytes: 2 * 1024 * 1024,
      allowAutoTopicCreation: false,
      // Where the router runs in the same process, its acknowledged jobs start at once rather than
      // after the broker answers this consumer's fetch. Retry records wait for their time anyway.
      localWrites: [topics.deliveries],
      sessionTimeout: options.sessionTimeoutMs,
      heartbeatInterval: Math.floor(options.sessionTimeoutMs / 10),
    });
    this.holds = new PartitionHolds(this.consumer, clock);
    this.jobs = new InFlightJobs(clock, metrics.inFlight, logger);
    this.committer = new OffsetCommitter(
      this.consumer,
      this.progress,
      options.commitIntervalMs,
      logger,
      clock,
    );
    this.restarter = new ConsumerRestarter(
      this.consumer,
      { autoCommit: false, eachBatchAutoResolve: false, eachBatch: (payload) => this.takeBatch(payload) },
      options.groupId,
      logger,
    );
    // A new generation reads from the committed offsets, which lag what finished by up to a commit
    // interval, or by the whole time the group had no coordinator (a broker lost). Where this
    // instance kept a partition it goes on after the last job it took instead of sending again
    // what it sent.
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => {
      this.holds.resumeAll();
      for (const position of this.progress.keepOnly(payload.memberAssignment)) this.consumer.seek(position);
    });
  }

  /** Tells `listener` when this instance joins the group (true) and when it stops or crashes (false): readiness. */
  onMembershipChange(listener: (joined: boolean) => void): void {
    const { GROUP_JOIN, CRASH, STOP, DISCONNECT } = this.consumer.events;
    this.consumer.on(GROUP_JOIN, () => listener(true));
    for (const event of [CRASH, STOP, DISCONNECT]) this.consumer.on(event, () => listener(false));
  }

  /** Tells `listener` the partitions this instance owns each time it joins the group. */
  onAssignment(listener: (assignment: Record<string, number[]>) => void): void {
    this.consumer.on(this.consumer.events.GROUP_JOIN, (event) => listener(event.payload.memberAssignment));
  }

  get subscribedTopics(): string[] {
    return [
      this.topics.deliveries,
      ...Array.from({ length: this.options.retryTiers }, (_, i) => this.topics.retry(i + 1)),
    ];
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    // fromBeginning: a group that has never committed must not skip the jobs written before it first started.
    await this.consumer.subscribe({ topics: this.subscribedTopics, fromBeginning: true });
    await this.restarter.run();
    this.committer.start();
  }

  /** Stop fetching, let in-flight jobs finish within the grace bound, commit what finished, leave the group. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.consumer.pause(this.subscribedTopics.map((topic) => ({ topic })));
    this.holds.close();
    this.jobs.close();
    await this.restarter.stop();
    const drained = await this.jobs.drained(this.options.shutdownGraceMs);
    if (!drained)
      this.logger.warn(
        { unfinished: this.jobs.count },
        'shutdown grace ran out; unfinished jobs will be delivered again after restart',
      );
    this.worker.stop();
    await this.committer.stop();
    await this.consumer.disconnect();
  }

  private async takeBatch({ batch, resolveOffset, isRunning, isStale }: BatchPayload): Promise<void> {
    const { topic, partition } = batch;
    const progress = this.progress.of(topic, partition);
    const isRetryTopic = topic !== this.topics.deliveries;
    for (const message of batch.messages) {
      if (this.stopping || !isRunning() || isStale()) return;
      if (!this.hasRoom(progress)) return this.holds.hold(topic, partition, message.offset);
      if (isRetryTopic) {
        const waitMs = (decodeNotBefore(message.headers) ?? 0) - this.clock.now();
        if (waitMs > 0) return this.holds.hold(topic, partition, message.offset, waitMs);
      }
      const offset = Number(message.offset);
      progress.take(offset, (message.key?.length ?? 0) + (message.value?.length ?? 0));
      resolveOffset(message.offset);
      const job = {
        topic,
        partition,
        offset: message.offset,
        key: detach(message.key),
        value: detach(message.value),
        headers: detachHeaders(message.headers),
      };
      this.jobs.track(
        () => this.worker.process(job),
        () => {
          progress.finish(offset);
          this.committer.commitSoon();
          if (!this.stopping) this.holds.releaseIfRoom(topic, partition, this.hasRoom(progress));
        },
      );
    }
  }

  private hasRoom(progress: PartitionProgress): boolean {
    return progress.hasRoom(this.options.maxInFlightPerPartition, this.options.maxInFlightBytesPerPartition);
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
function detachHeaders(headers: ConsumedHeaders | undefined): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const name in headers) {
    const value = headerString(headers, name);
    if (value !== undefined) copy[name] = value;
  }
  return copy;
}
