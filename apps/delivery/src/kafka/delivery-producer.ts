import { BeforeApplicationShutdown, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { TopicNames, topicsOf } from '@switchyard/contracts';
import { topicPolicy, topicSpecs } from '@switchyard/config';
import {
  BatchingProducer,
  compressionType,
  DEFAULT_BATCHING,
  followProducerConnection,
  KafkaClient,
  KafkaConnection,
  KafkaProducer,
  ProducerConnection,
  startKafka,
} from '@switchyard/kafka';
import { AttemptLog } from '../attempts/attempt-log';
import { DeliveryMetrics } from '../delivery-metrics';
import { DeliverySettings } from '../delivery-settings';
import { KAFKA_CLIENT, KAFKA_CONNECTION, LOGGER, TOPICS } from '../delivery.tokens';

/**
 * Delivery's producing side: checks the connection, creates the topics delivery writes, and
 * holds the one producer that retry, dead-letter and attempt records share. It lives in the
 * core module, so it starts before the consumer and stops after it: every record of a job the
 * consumer finished is sent before the producer disconnects.
 */
@Injectable()
export class DeliveryProducer implements OnModuleInit, BeforeApplicationShutdown {
  /** Present when delivery writes the attempts topic (DELIVERY_ATTEMPTS_TOPIC). */
  readonly attemptLog: AttemptLog | undefined;
  private readonly producer: KafkaProducer;
  private readonly batching: BatchingProducer;
  private readonly producerConnection: ProducerConnection;

  constructor(
    @Inject(KAFKA_CLIENT) private readonly kafka: KafkaClient,
    @Inject(KAFKA_CONNECTION) private readonly connection: KafkaConnection,
    private readonly settings: DeliverySettings,
    @Inject(TOPICS) private readonly topics: TopicNames,
    metrics: DeliveryMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    // Retry and dead-letter records keep the job's key; the client's partitioner keeps one key on one partition.
    this.producer = kafka.producer();
    const compression = compressionType(settings.kafkaCompression);
    this.batching = new BatchingProducer(
      this.producer,
      { ...DEFAULT_BATCHING, compression },
      { name: 'delivery-producer', logger },
    );
    // Its own batching on the same producer: attempt records never share a produce request with a job's retry or dead letter.
    // Compressed however small: nothing waits on them, and zstd (off the event loop) shrinks what kafkajs checksums and copies.
    this.attemptLog = settings.attemptsTopic
      ? new AttemptLog(
          new BatchingProducer(this.producer, { ...DEFAULT_BATCHING, compression, minCompressedBytes: 0 }),
          topics.deliveryAttempts,
          metrics,
          logger,
        )
      : undefined;
    this.producerConnection = followProducerConnection(this.producer);
  }

  get isConnected(): boolean {
    return this.producerConnection.connected;
  }

  /** Sends a job's retry or dead-letter records, batched with other jobs'. */
  readonly send = (records: Parameters<BatchingProducer['send']>[0]): Promise<void> =>
    this.batching.send(records);

  async onModuleInit(): Promise<void> {
    // The attempts topic only when delivery writes it; the console creates it for itself.
    const rows = topicsOf('delivery', this.topics, this.settings.retryScheduleMs.length).filter(
      (row) => this.attemptLog || row.name !== this.topics.deliveryAttempts,
    );
    await startKafka({
      kafka: this.kafka,
      connection: this.connection,
      topics: topicSpecs(rows, this.settings, { retryWindowMs: this.settings.retryWindowMs }),
      policy: topicPolicy(this.settings),
      logger: this.logger,
      connect: () => this.producer.connect(),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.batching.drain();
    await this.attemptLog?.drain();
    await this.producer.disconnect();
  }
}
