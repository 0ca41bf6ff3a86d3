/**
 * Switchyard's view of a Kafka client: the producer, consumer and admin operations the services
 * use, in types of its own. Apps and the other libraries see only these; the one adapter in
 * `kafka-client.ts` hands out the client library's objects, which satisfy them. Swapping or
 * upgrading the client is a change behind these interfaces.
 *
 * Offsets are decimal strings: Kafka's are 64-bit integers, beyond a JavaScript number.
 */

/** A header value as read: bytes, text, or every value of a repeated header. */
export type RecordHeaderValue = Buffer | string | (Buffer | string)[] | undefined;

export interface ConsumedHeaders {
  [name: string]: RecordHeaderValue;
}

/** One record as a consumer reads it. */
export interface KafkaRecord {
  key: Buffer | null;
  value: Buffer | null;
  headers?: ConsumedHeaders;
  offset: string;
  /** Milliseconds since the epoch, as a decimal string. */
  timestamp: string;
}

/** The records of one partition handed to a consumer in one fetch. */
export interface RecordBatch {
  topic: string;
  partition: number;
  highWatermark: string;
  messages: KafkaRecord[];
  isEmpty(): boolean;
  firstOffset(): string | null;
  lastOffset(): string;
}

/** What a batch handler gets with its batch. */
export interface BatchPayload {
  batch: RecordBatch;
  /** Marks the batch read up to and including `offset`. */
  resolveOffset(offset: string): void;
  /** Tells the group this member is alive during long work. */
  heartbeat(): Promise<void>;
  isRunning(): boolean;
  /** The partition was revoked by a rebalance since the batch was fetched. */
  isStale(): boolean;
  /** Stops fetching this partition; the returned function resumes it. */
  pause(): () => void;
}

export interface RecordPayload {
  topic: string;
  partition: number;
  message: KafkaRecord;
}

export interface ConsumerRunOptions {
  autoCommit?: boolean;
  autoCommitInterval?: number;
  eachBatchAutoResolve?: boolean;
  partitionsConsumedConcurrently?: number;
  eachBatch?: (payload: BatchPayload) => Promise<void>;
  eachMessage?: (payload: RecordPayload) => Promise<void>;
}

export interface TopicPartitions {
  topic: string;
  partitions?: number[];
}

export interface PartitionOffset {
  topic: string;
  partition: number;
  offset: string;
}

/** The consumer's lifecycle events a service listens to. */
export interface ConsumerEvents {
  readonly GROUP_JOIN: 'consumer.group_join';
  readonly CRASH: 'consumer.crash';
  readonly STOP: 'consumer.stop';
  readonly DISCONNECT: 'consumer.disconnect';
  readonly END_BATCH_PROCESS: 'consumer.end_batch_process';
}

export interface ConsumerCrash {
  error: Error;
  groupId: string;
  /** The client restarts the consumer by itself. */
  restart: boolean;
}

export interface ConsumerOptions {
  groupId: string;
  sessionTimeout?: number;
  heartbeatInterval?: number;
  /** How long a fetch waits on an empty partition. */
  maxWaitTimeInMs?: number;
  /** Bytes a fetch waits for (up to maxWaitTimeInMs) before the broker answers; 1 unless set. */
  minBytes?: number;
  maxBytes?: number;
  maxBytesPerPartition?: number;
  readUncommitted?: boolean;
  allowAutoTopicCreation?: boolean;
  /**
   * Topics whose records this process's own producers write are handed to this consumer as soon
   * as the broker acknowledges them (acks = all), wherever that keeps each partition's records
   * once and in order; the fetch bringing them again skips them. Needs `eachBatch`.
   */
  localWrites?: string[];
}

export interface KafkaConsumer {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  subscribe(subscription: { topics: string[]; fromBeginning?: boolean }): Promise<void>;
  /** Joins the group and starts fetching; resolves once it has joined or crashed. */
  run(options: ConsumerRunOptions): Promise<void>;
  commitOffsets(offsets: PartitionOffset[]): Promise<void>;
  seek(position: PartitionOffset): void;
  pause(topics: TopicPartitions[]): void;
  resume(topics: TopicPartitions[]): void;
  readonly events: ConsumerEvents;
  on(
    event: ConsumerEvents['GROUP_JOIN'],
    listener: (event: { payload: { memberAssignment: Record<string, number[]> } }) => void,
  ): () => void;
  on(event: ConsumerEvents['CRASH'], listener: (event: { payload: ConsumerCrash }) => void): () => void;
  on(
    event: ConsumerEvents['END_BATCH_PROCESS'],
    listener: (event: { payload: { topic: string; partition: number; lastOffset: string } }) => void,
  ): () => void;
  on(event: ConsumerEvents[keyof ConsumerEvents], listener: () => void): () => void;
}

/** A record to write. */
export interface OutgoingMessage {
  key?: Buffer | string | null;
  value: Buffer | string | null;
  /** Pins the record to a partition; unset: the key's partition. */
  partition?: number;
  headers?: Record<string, Buffer | string | undefined>;
}

export interface TopicMessages {
  topic: string;
  messages: OutgoingMessage[];
}

/** Kafka's record batch codec ids, as the protocol numbers them. */
export const CompressionCodec = { None: 0, GZIP: 1, ZSTD: 4 } as const;
export type CompressionCodec = (typeof CompressionCodec)[keyof typeof CompressionCodec];

/** One produce request. */
export interface ProduceRequest {
  topicMessages: TopicMessages[];
  /** -1: every in-sync replica has the records before the request is acknowledged. */
  acks?: number;
  compression?: CompressionCodec;
}

/** Where the broker wrote one partition's share of a produce request. */
export interface WrittenPartition {
  topicName: string;
  partition: number;
  baseOffset?: string;
}

export interface ProducerOptions {
  /** 1 keeps each partition's records in order across retries. */
  maxInFlightRequests?: number;
  idempotent?: boolean;
  transactionalId?: string;
}

export interface ProducerEvents {
  readonly CONNECT: 'producer.connect';
  readonly DISCONNECT: 'producer.disconnect';
}

export interface KafkaTransaction {
  sendBatch(request: ProduceRequest): Promise<WrittenPartition[]>;
  sendOffsets(offsets: {
    consumerGroupId: string;
    topics: { topic: string; partitions: { partition: number; offset: string }[] }[];
  }): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
  isActive(): boolean;
}

export interface KafkaProducer {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  sendBatch(request: ProduceRequest): Promise<WrittenPartition[]>;
  send(request: TopicMessages & { acks?: number }): Promise<WrittenPartition[]>;
  transaction(): Promise<KafkaTransaction>;
  readonly events: ProducerEvents;
  on(event: ProducerEvents['CONNECT'] | ProducerEvents['DISCONNECT'], listener: () => void): () => void;
}

export interface PartitionEnds {
  partition: number;
  /** The offset the next record will get. */
  high: string;
  /** The first offset still held. */
  low: string;
}

export interface TopicCreation {
  topic: string;
  numPartitions: number;
  /** -1: the broker's default. */
  replicationFactor: number;
  configEntries: { name: string; value: string }[];
}

export interface PartitionMetadata {
  partitionId: number;
  /** -1 while the partition has no leader. */
  leader: number;
  replicas: number[];
}

export interface KafkaAdmin {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  describeCluster(): Promise<{ brokers: { nodeId: number; host: string; port: number }[] }>;
  listTopics(): Promise<string[]>;
  createTopics(request: {
    topics: TopicCreation[];
    waitForLeaders?: boolean;
    timeout?: number;
  }): Promise<boolean>;
  fetchTopicMetadata(request: {
    topics: string[];
  }): Promise<{ topics: { name: string; partitions: PartitionMetadata[] }[] }>;
  fetchTopicOffsets(topic: string): Promise<(PartitionEnds & { offset: string })[]>;
  fetchOffsets(request: {
    groupId: string;
    topics: string[];
  }): Promise<{ topic: string; partitions: { partition: number; offset: string }[] }[]>;
  deleteGroups(groupIds: string[]): Promise<unknown>;
}

export interface AdminOptions {
  /** Retries of a failed request; unset: the client's default. */
  retry?: { retries: number };
}

/** A connection to one Kafka cluster, from which producers, consumers and admins are made. */
export interface KafkaClient {
  producer(options?: ProducerOptions): KafkaProducer;
  consumer(options: ConsumerOptions): KafkaConsumer;
  admin(options?: AdminOptions): KafkaAdmin;
}
