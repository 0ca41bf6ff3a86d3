import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { TopicNames, topicsOf } from '@switchyard/contracts';
import { topicPolicy, topicSpecs } from '@switchyard/config';
import {
  BatchingProducer,
  BrokerProbe,
  compressionType,
  DEFAULT_BATCHING,
  followProducerConnection,
  KafkaClient,
  KafkaConnection,
  KafkaProducer,
  startKafka,
} from '@switchyard/kafka';
import { Readiness } from '@switchyard/telemetry';
import { IngestSettings } from '../ingest-settings';
import { KAFKA_CLIENT, KAFKA_CONNECTION, LOGGER, TOPICS } from '../ingest.tokens';

/**
 * Ingest's Kafka side: creates the topics ingest writes to, and owns the one producer every
 * request shares (acks = all, batched across requests, each request bounded by the produce
 * timeout). Shutdown drains it before disconnecting, so a request that was answered 200 is never
 * lost to a restart. Ready only while a request's records would be produced at once: the producer
 * is connected, the brokers answer, and no produce request waits in the client's retries.
 */
@Injectable()
export class IngestKafka implements OnModuleInit, OnApplicationShutdown {
  private readonly producer: KafkaProducer;
  private readonly probe: BrokerProbe;
  readonly batching: BatchingProducer;

  constructor(
    @Inject(KAFKA_CLIENT) private readonly kafka: KafkaClient,
    @Inject(KAFKA_CONNECTION) private readonly connection: KafkaConnection,
    private readonly settings: IngestSettings,
    @Inject(TOPICS) private readonly topics: TopicNames,
    @Inject(LOGGER) private readonly logger: Logger,
    readiness: Readiness,
  ) {
    this.producer = kafka.producer();
    this.batching = new BatchingProducer(
      this.producer,
      {
        ...DEFAULT_BATCHING,
        lingerMs: settings.produceLingerMs,
        compression: compressionType(settings.kafkaCompression),
        timeoutMs: settings.produceTimeoutMs,
      },
      { name: 'ingest-producer', logger },
    );
    this.probe = new BrokerProbe(kafka);
    const producerConnection = followProducerConnection(this.producer);
    readiness.register(
      'kafka',
      () => producerConnection.connected && this.probe.reachable && this.batching.writing,
    );
  }

  async onModuleInit(): Promise<void> {
    await startKafka({
      kafka: this.kafka,
      connection: this.connection,
      topics: topicSpecs(topicsOf('ingest', this.topics), this.settings),
      policy: topicPolicy(this.settings),
      logger: this.logger,
      connect: () => this.producer.connect(),
    });
    await this.probe.start();
    this.logger.info({ brokers: this.settings.kafkaBrokers }, 'connected to Kafka');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.probe.stop();
    await this.batching.drain();
    await this.producer.disconnect();
  }
}
