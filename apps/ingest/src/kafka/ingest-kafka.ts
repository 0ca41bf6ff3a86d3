import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Kafka, Partitioners, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { TopicNames, topicsOf } from '@switchyard/contracts';
import { kafkaConnection, topicPolicy, topicSpecs } from '@switchyard/config';
import {
  BatchingProducer,
  BrokerProbe,
  checkKafkaConnection,
  compressionType,
  createKafka,
  DEFAULT_BATCHING,
  ensureTopics,
  KafkaConnection,
} from '@switchyard/kafka';
import { Readiness } from '@switchyard/telemetry';
import { IngestSettings } from '../ingest-settings';
import { LOGGER, TOPICS } from '../ingest.tokens';

/**
 * Ingest's Kafka side: creates the topics ingest writes to, and owns the one producer every
 * request shares (acks = all, batched across requests, each request bounded by the produce
 * timeout). Shutdown drains it before disconnecting, so a request that was answered 200 is never
 * lost to a restart. Ready while the producer is connected and the brokers answer.
 */
@Injectable()
export class IngestKafka implements OnModuleInit, OnApplicationShutdown {
  private readonly connection: KafkaConnection;
  private readonly kafka: Kafka;
  private readonly producer: Producer;
  private readonly probe: BrokerProbe;
  readonly batching: BatchingProducer;
  private connected = false;

  constructor(
    private readonly settings: IngestSettings,
    @Inject(TOPICS) private readonly topics: TopicNames,
    @Inject(LOGGER) private readonly logger: Logger,
    readiness: Readiness,
  ) {
    this.connection = kafkaConnection(settings);
    this.kafka = createKafka('switchyard-ingest', this.connection, logger);
    this.producer = this.kafka.producer({
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    this.batching = new BatchingProducer(this.producer, {
      ...DEFAULT_BATCHING,
      lingerMs: settings.produceLingerMs,
      compression: compressionType(settings.kafkaCompression),
      timeoutMs: settings.produceTimeoutMs,
    });
    this.probe = new BrokerProbe(this.kafka);
    this.producer.on(this.producer.events.DISCONNECT, () => (this.connected = false));
    this.producer.on(this.producer.events.CONNECT, () => (this.connected = true));
    readiness.register('kafka', () => this.connected && this.probe.reachable);
  }

  async onModuleInit(): Promise<void> {
    await checkKafkaConnection(this.kafka, this.connection);
    await ensureTopics(
      this.kafka,
      topicSpecs(topicsOf('ingest', this.topics), this.settings),
      topicPolicy(this.settings),
    );
    await this.producer.connect();
    await this.probe.start();
    this.logger.info({ brokers: this.settings.kafkaBrokers }, 'connected to Kafka');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.probe.stop();
    await this.batching.drain();
    await this.producer.disconnect();
  }
}
