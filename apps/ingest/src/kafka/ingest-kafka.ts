import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Kafka, Partitioners, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { TopicNames } from '@switchyard/contracts';
import { BatchingProducer, compressionType, createKafka, DEFAULT_BATCHING, ensureTopics } from '@switchyard/kafka';
import { Readiness } from '@switchyard/telemetry';
import { IngestSettings } from '../ingest-settings';
import { LOGGER, TOPICS } from '../ingest.tokens';

/**
 * Ingest's Kafka side: creates the topics ingest writes to, and owns the one producer every
 * request shares (acks = all, batched across requests). Shutdown drains it before disconnecting,
 * so a request that was answered 200 is never lost to a restart.
 */
@Injectable()
export class IngestKafka implements OnModuleInit, OnApplicationShutdown {
  private readonly kafka: Kafka;
  private readonly producer: Producer;
  readonly batching: BatchingProducer;
  private connected = false;

  constructor(
    private readonly settings: IngestSettings,
    @Inject(TOPICS) private readonly topics: TopicNames,
    @Inject(LOGGER) private readonly logger: Logger,
    readiness: Readiness,
  ) {
    this.kafka = createKafka('switchyard-ingest', settings.kafkaBrokers, logger);
    this.producer = this.kafka.producer({ allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
    this.batching = new BatchingProducer(this.producer, {
      ...DEFAULT_BATCHING,
      lingerMs: settings.produceLingerMs,
      compression: compressionType(settings.kafkaCompression),
    });
    this.producer.on(this.producer.events.DISCONNECT, () => (this.connected = false));
    this.producer.on(this.producer.events.CONNECT, () => (this.connected = true));
    readiness.register('kafka', () => this.connected);
  }

  async onModuleInit(): Promise<void> {
    const partitions = this.settings.topicPartitions;
    await ensureTopics(this.kafka, [
      { topic: this.topics.events, numPartitions: partitions },
      { topic: this.topics.audiences, numPartitions: partitions },
      { topic: this.topics.deletions, numPartitions: 1 },
    ]);
    await this.producer.connect();
    this.logger.info({ brokers: this.settings.kafkaBrokers }, 'connected to Kafka');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.batching.drain();
    await this.producer.disconnect();
  }
}
