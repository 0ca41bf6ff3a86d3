import { BeforeApplicationShutdown, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Kafka, Partitioners, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { topicNames, TopicNames, topicsOf } from '@switchyard/contracts';
import { kafkaConnection, topicPolicy, topicSpecs, WorkspaceConfigStore } from '@switchyard/config';
import { BatchingProducer, BrokerProbe, checkKafkaConnection, compressionType, ConsumerLagMonitor, createKafka, DEFAULT_BATCHING, ensureTopics, exportConsumerLag, KafkaConnection, retryTransient } from '@switchyard/kafka';
import { Readiness } from '@switchyard/telemetry';
import { AttemptLog } from './attempts/attempt-log';
import { DeliveryConsumer } from './consumer/delivery-consumer';
import { DeadLetterStore } from './dead-letters/dead-letter-store';
import { DeliveryMetrics, readLiveStateFrom } from './delivery-metrics';
import { DeliverySettings } from './delivery-settings';
import { LOGGER } from './delivery.tokens';
import { systemClock } from './clock';
import { UndiciWebhookClient } from './http/undici-webhook-client';
import { CircuitBreakers } from './isolation/circuit-breaker';
import { DestinationLimiter } from './isolation/destination-limiter';
import { DeliveryWorker } from './pipeline/delivery-worker';

/**
 * Delivery's moving parts, wired once: Kafka producer and consumer, the HTTP client, the
 * isolation guards and the worker. Start checks the connection, creates the topics and joins
 * the group; shutdown stops fetching, lets in-flight jobs finish within the grace bound,
 * commits, and disconnects. Ready while the group is joined and the brokers answer.
 */
@Injectable()
export class DeliveryRuntime implements OnModuleInit, BeforeApplicationShutdown {
  readonly topics: TopicNames;
  readonly deadLetters: DeadLetterStore;
  private readonly connection: KafkaConnection;
  private readonly kafka: Kafka;
  private readonly probe: BrokerProbe;
  private readonly producer: Producer;
  private readonly batching: BatchingProducer;
  private readonly client: UndiciWebhookClient;
  private readonly consumer: DeliveryConsumer;
  private readonly attemptLog: AttemptLog | undefined;
  private readonly lag: ConsumerLagMonitor;
  private readonly breakers: CircuitBreakers;
  private readonly limiter: DestinationLimiter;
  private readonly metrics = new DeliveryMetrics();
  private stopExportingLag: (() => Promise<void>) | undefined;
  private stopConfiguringMetrics: (() => void) | undefined;
  private producerConnected = false;
  private consumerJoined = false;

  constructor(
    private readonly settings: DeliverySettings,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly workspace: WorkspaceConfigStore,
    readiness: Readiness,
  ) {
    const groupId = `${settings.topicNamespace}.delivery`;
    this.topics = topicNames(settings.topicNamespace);
    this.connection = kafkaConnection(settings);
    this.kafka = createKafka('switchyard-delivery', this.connection, logger);
    // Retry and dead-letter records keep the job's key; the default (murmur2) partitioner keeps one key on one partition.
    this.producer = this.kafka.producer({ allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
    this.batching = new BatchingProducer(this.producer, { ...DEFAULT_BATCHING, compression: compressionType(settings.kafkaCompression) });
    const produce = (records: Parameters<BatchingProducer['send']>[0]) => this.batching.send(records);
    // Its own batching on the same producer: attempt records never share a produce request with a job's retry or dead letter.
    this.attemptLog = settings.attemptsTopic
      ? new AttemptLog(new BatchingProducer(this.producer, { ...DEFAULT_BATCHING, compression: compressionType(settings.kafkaCompression) }), this.topics.deliveryAttempts, this.metrics, logger)
      : undefined;
    this.client = new UndiciWebhookClient(
      { connectionsPerOrigin: settings.maxInFlightPerDestination, blockPrivateAddresses: settings.blockPrivateAddresses },
      systemClock,
    );
    this.breakers = new CircuitBreakers(settings.breakerFailureThreshold, settings.breakerOpenMs, systemClock);
    this.limiter = new DestinationLimiter(settings.maxInFlightPerDestination);
    const worker = new DeliveryWorker({
      topics: this.topics,
      consumerGroup: groupId,
      destination: (id) => workspace.destination(id),
      client: this.client,
      breakers: this.breakers,
      limiter: this.limiter,
      clock: systemClock,
      random: Math.random,
      produce,
      policy: {
        schedule: { delaysMs: settings.retryScheduleMs, jitterRatio: settings.retryJitterRatio, retryAfterMaxMs: settings.retryAfterMaxMs },
        windowMs: settings.retryWindowMs,
      },
      userAgentToken: settings.userAgentToken,
      requestTimeoutMs: settings.requestTimeoutMs,
      logger,
      metrics: this.metrics,
      attempts: this.attemptLog,
    });
    this.consumer = new DeliveryConsumer(
      this.kafka,
      worker,
      this.topics,
      {
        groupId,
        retryTiers: settings.retryScheduleMs.length,
        maxInFlightPerPartition: settings.maxInFlightPerPartition,
        maxInFlightBytesPerPartition: settings.maxInFlightBytesPerPartition,
        commitIntervalMs: settings.commitIntervalMs,
        shutdownGraceMs: settings.shutdownGraceMs,
        sessionTimeoutMs: settings.kafkaSessionTimeoutMs,
      },
      systemClock,
      logger,
      this.metrics,
    );
    this.lag = new ConsumerLagMonitor(this.kafka, [{ groupId, topics: [this.topics.deliveries, ...this.retryTopics] }]);
    this.deadLetters = new DeadLetterStore(this.kafka, this.topics, produce, logger, this.metrics);
    this.producer.on(this.producer.events.CONNECT, () => (this.producerConnected = true));
    this.producer.on(this.producer.events.DISCONNECT, () => (this.producerConnected = false));
    this.consumer.onMembershipChange((joined) => (this.consumerJoined = joined));
    this.probe = new BrokerProbe(this.kafka);
    readiness.register('kafka', () => this.producerConnected && this.consumerJoined && this.probe.reachable);
  }

  private get retryTopics(): string[] {
    return this.settings.retryScheduleMs.map((_, i) => this.topics.retry(i + 1));
  }

  async onModuleInit(): Promise<void> {
    // The attempts topic only when delivery writes it (DELIVERY_ATTEMPTS_TOPIC); the console creates it for itself.
    const rows = topicsOf('delivery', this.topics, this.retryTopics.length).filter((row) => this.attemptLog || row.name !== this.topics.deliveryAttempts);
    await checkKafkaConnection(this.kafka, this.connection);
    await ensureTopics(this.kafka, topicSpecs(rows, this.settings, { retryWindowMs: this.settings.retryWindowMs }), topicPolicy(this.settings));
    const configureMetrics = () => this.metrics.configure(this.workspace.config.destinations.map((d) => d.id), this.retryTopics.length);
    configureMetrics();
    this.stopConfiguringMetrics = this.workspace.onChange(configureMetrics);
    await this.producer.connect();
    await retryTransient(() => this.consumer.start());
    await this.probe.start();
    readLiveStateFrom({ destinations: () => this.workspace.config.destinations, breakers: this.breakers, limiter: this.limiter, lag: this.lag, retryTopics: this.retryTopics });
    this.stopExportingLag = exportConsumerLag(this.lag);
    this.logger.info({ brokers: this.settings.kafkaBrokers, namespace: this.settings.topicNamespace }, 'delivery consuming');
  }

  async beforeApplicationShutdown(): Promise<void> {
    readLiveStateFrom(undefined);
    this.stopConfiguringMetrics?.();
    await this.probe.stop();
    await (this.stopExportingLag?.() ?? this.lag.close());
    await this.consumer.stop();
    await this.batching.drain();
    await this.attemptLog?.drain();
    await this.producer.disconnect();
    await this.client.close();
    this.logger.info('delivery stopped: in-flight jobs finished or left for re-delivery, offsets committed');
  }
}
