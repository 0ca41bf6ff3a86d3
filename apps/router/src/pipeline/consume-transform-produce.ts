import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  BatchingProducer,
  BatchPayload,
  CompressionCodec,
  ConsumerRestarter,
  KafkaClient,
  KafkaConsumer,
  KafkaProducer,
  MarkedPositions,
  MAX_PRODUCE_REQUEST_BYTES,
  OffsetCommitter,
  ProducerOptions,
} from '@switchyard/kafka';
import { AcknowledgedCommitter, BatchCommitter, TransactionalCommitter } from './batch-committer';
import { BatchHandler } from './batch-handler';

export interface PipelineOptions {
  /** Short name for logs and metrics: events, audiences, deletions. */
  name: string;
  groupId: string;
  topics: string[];
  transactional: boolean;
  /** Compression of the output record batches. */
  compression: CompressionCodec;
  /** How long the group waits for a silent member before moving its partitions. */
  sessionTimeoutMs: number;
  /** At-least-once mode: how long the input offsets of acknowledged batches wait before they are committed. */
  commitIntervalMs: number;
}

/**
 * One consumer group reading some topics, one handler turning each batch into records, and one
 * producer writing them before the input offsets are committed.
 *
 * The Kafka client (libs/kafka) directly rather than @nestjs/microservices' Kafka transport: the transport hands
 * handlers one message at a time, commits offsets itself and has no transactional
 * produce-with-offsets, while routing needs whole batches, offsets committed only after the
 * outputs are acknowledged (or inside the same transaction), and the assignment of partitions
 * (audience state follows it).
 */
/** Partitions whose batches are handled at once in at-least-once mode. */
const CONCURRENT_PARTITIONS = 4;

export class ConsumeTransformProduce {
  private readonly consumer: KafkaConsumer;
  private readonly producer: KafkaProducer;
  private readonly committer: BatchCommitter;
  /** At-least-once mode only; transactions commit offsets with their outputs. */
  private readonly offsets: { marked: MarkedPositions; committer: OffsetCommitter } | undefined;
  private readonly batchesInHand = new Set<Promise<void>>();
  private readonly restarter: ConsumerRestarter;
  private running = false;
  private stopping = false;

  constructor(
    kafka: KafkaClient,
    readonly options: PipelineOptions,
    private readonly handler: BatchHandler,
    private readonly logger: Logger,
  ) {
    // Transactional consumers must not see aborted outputs of other pipelines: read committed
    // (kafkajs's default) is kept explicitly.
    this.consumer = kafka.consumer({
      groupId: options.groupId,
      sessionTimeout: options.sessionTimeoutMs,
      heartbeatInterval: Math.floor(options.sessionTimeoutMs / 10),
      maxWaitTimeInMs: 250,
      // kafkajs's defaults are 10 MB per fetch and 1 MB per partition, counted compressed: a
      // fetch of zstd batches inflated to hundreds of MB at once with 4 KB events. These bounds
      // keep the router inside its memory target for a little throughput (bench/README.md);
      // ~500-byte events still come a thousand or more per fetch.
      maxBytes: 512 * 1024,
      maxBytesPerPartition: 128 * 1024,
      readUncommitted: false,
      allowAutoTopicCreation: false,
      // Where ingest runs in the same process, its acknowledged calls are routed at once rather
      // than after the broker answers this consumer's fetch. A transaction hands its batches to
      // one producer in turn, so transactional pipelines take records from fetches only.
      localWrites: options.transactional ? undefined : options.topics,
    });
    // The client's partitioner honours a record's explicit partition (changelog records are
    // pinned beside their input). One request in flight keeps each partition's records in order
    // across retries.
    const common: ProducerOptions = { maxInFlightRequests: 1 };
    this.producer = kafka.producer(
      options.transactional
        ? // Unique per process: kafkajs cannot fence by consumer-group generation (KIP-447), so a
          // stable id would only let two live instances fence each other.
          { ...common, idempotent: true, transactionalId: `${options.groupId}.${randomUUID()}` }
        : // Not idempotent: when a partition's leader dies mid-request, kafkajs's idempotent
          // producer gets OUT_OF_ORDER_SEQUENCE_NUMBER from the new leader and cannot recover
          // (it never resets its sequence), which stopped the pipeline for good
          // (test/e2e/broker-failure.spec.ts). At-least-once routing already tolerates the
          // duplicate a retried request may write.
          common,
    );
    if (options.transactional) {
      this.committer = new TransactionalCommitter(this.producer, options.groupId, options.compression);
    } else {
      const marked = new MarkedPositions(() => committer.commitSoon());
      const committer = new OffsetCommitter(this.consumer, marked, options.commitIntervalMs, logger);
      this.offsets = { marked, committer };
      // No linger: while one request is in flight the next fills up, which is batching enough.
      // The byte bound is the one that matters; the record bound only has to stay out of its way.
      const batching = new BatchingProducer(this.producer, {
        lingerMs: 0,
        maxBatchRecords: 100_000,
        maxBatchBytes: MAX_PRODUCE_REQUEST_BYTES,
        maxInFlight: 1,
        compression: options.compression,
      });
      this.committer = new AcknowledgedCommitter(batching, marked);
    }
    this.restarter = new ConsumerRestarter(
      this.consumer,
      {
        autoCommit: false,
        eachBatchAutoResolve: false,
        // Without transactions the partitions of one fetch are handled side by side, so a batch
        // does not wait for the produce and commit round trips of every partition before it; a
        // transaction belongs to one producer, so transactional batches go one at a time.
        partitionsConsumedConcurrently: options.transactional ? 1 : CONCURRENT_PARTITIONS,
        eachBatch: (payload) => this.trackBatch(this.handleBatch(payload)),
      },
      options.groupId,
      logger,
    );
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => {
      // A new generation reads from the committed offsets; where this instance kept a partition
      // and finished past them, it resumes there: a rejoin routes nothing twice that it finished.
      // A batch still in hand (one handed over in-process) finishes later, and its records,
      // fetched again, are left out then.
      const finished = this.offsets?.marked.keepOnly(payload.memberAssignment) ?? [];
      for (const position of finished) this.consumer.seek(position);
      this.handler.onAssigned?.(payload.memberAssignment);
      if (!this.stopping) this.running = true;
    });
    // Not consuming until it has joined again (kafkajs's own restart, or ConsumerRestarter's): readiness.
    this.consumer.on(this.consumer.events.CRASH, () => (this.running = false));
  }

  /** Connects, joins the group and starts consuming; resolves once partitions are assigned. */
  async start(): Promise<void> {
    await this.producer.connect();
    await this.consumer.connect();
    // A new group starts at the beginning: records accepted before the router first ran are routed too.
    await this.consumer.subscribe({ topics: this.options.topics, fromBeginning: true });
    await this.restarter.run();
    this.offsets?.committer.start();
    this.logger.info(
      { pipeline: this.options.name, topics: this.options.topics, transactional: this.options.transactional },
      'pipeline started',
    );
  }

  get isRunning(): boolean {
    return this.running;
  }

  /**
   * Lets the batches in hand finish, commits their offsets, then leaves the group. kafkajs
   * refuses commits once its own stop has begun, hence the commit before `disconnect`.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping = true;
    await this.restarter.stop();
    await Promise.allSettled(this.batchesInHand);
    await this.offsets?.committer.stop();
    await this.consumer.disconnect();
    await this.producer.disconnect();
  }

  private trackBatch(handling: Promise<void>): Promise<void> {
    this.batchesInHand.add(handling);
    const settled = () => this.batchesInHand.delete(handling);
    handling.then(settled, settled);
    return handling;
  }

  private async handleBatch({
    batch,
    resolveOffset,
    heartbeat,
    isRunning,
    isStale,
  }: BatchPayload): Promise<void> {
    if (this.stopping || batch.isEmpty() || !isRunning() || isStale()) return;
    const unfinished = this.offsets?.marked.unfinished(batch) ?? batch;
    if (unfinished.isEmpty()) return resolveOffset(batch.lastOffset());
    const handled = await this.handler.handle(unfinished, {
      heartbeat,
      consumerGroup: this.options.groupId,
    });
    const position = {
      topic: batch.topic,
      partition: batch.partition,
      offset: (BigInt(batch.lastOffset()) + 1n).toString(),
    };
    try {
      await this.committer.commit(handled, position);
    } catch (error) {
      this.handler.onCommitFailed?.(batch.topic, batch.partition);
      // Thrown on purpose: kafkajs re-fetches the uncommitted batch, so nothing is skipped.
      throw error;
    }
    resolveOffset(batch.lastOffset());
    await heartbeat();
  }
}
