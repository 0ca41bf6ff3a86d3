import { BeforeApplicationShutdown, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Kafka, Partitioners, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { topicNames, TopicNames } from '@switchyard/contracts';
import { WorkspaceConfigStore } from '@switchyard/config';
import { BatchingProducer, compressionType, createKafka, DEFAULT_BATCHING, ensureTopics } from '@switchyard/kafka';
import { Readiness } from '@switchyard/telemetry';
import { AttemptLog } from './attempts/attempt-log';
import { DeliveryConsumer } from './consumer/delivery-consumer';
import { DeadLetterStore } from './dead-letters/dead-letter-store';
import { deliveryMetrics, measureRetryBacklogWith } from './delivery-metrics';
import { RetryBacklog } from './consumer/retry-backlog';
import { DeliverySettings } from './delivery-settings';
import { LOGGER } from './delivery.tokens';
import { systemClock } from './clock';
import { UndiciWebhookClient } from './http/undici-webhook-client';
import { CircuitBreakers } from './isolation/circuit-breaker';
import { DestinationLimiter } from './isolation/destination-limiter';
import { DeliveryWorker } from './pipeline/delivery-worker';

/**
 * Delivery's moving parts, wired once: Kafka producer and consumer, the HTTP client, the
 * isolation guards and the worker. Start creates the topics and joins the group; shutdown
 * stops fetching, lets in-flight jobs finish within the grace bound, commits, and disconnects.
 */
@Injectable()
export class DeliveryRuntime implements OnModuleInit, BeforeApplicationShutdown {
  readonly topics: TopicNames;
  readonly deadLetters: DeadLetterStore;
  private readonly kafka: Kafka;
  private readonly producer: Producer;
  private readonly batching: BatchingProducer;
  private readonly client: UndiciWebhookClient;
  private readonly consumer: DeliveryConsumer;
  private readonly retryBacklog: RetryBacklog;
  private readonly attemptLog: AttemptLog | undefined;
  private producerConnected = false;
  private consumerJoined = false;

  constructor(
    private readonly settings: DeliverySettings,
    @Inject(LOGGER) private readonly logger: Logger,
    workspace: WorkspaceConfigStore,
    readiness: Readiness,
  ) {
    const metrics = deliveryMetrics();
    const groupId = `${settings.topicNamespace}.delivery`;
    this.topics = topicNames(settings.topicNamespace);
    this.kafka = createKafka('switchyard-delivery', settings.kafkaBrokers, logger);
    // Retry and dead-letter records keep the job's key; the default (murmur2) partitioner keeps one key on one partition.
    this.producer = this.kafka.producer({ allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
    this.batching = new BatchingProducer(this.producer, { ...DEFAULT_BATCHING, compression: compressionType(settings.kafkaCompression) });
    const produce = (records: Parameters<BatchingProducer['send']>[0]) => this.batching.send(records);
    // Its own batching on the same producer: attempt records never share a produce request with a job's retry or dead letter.
    this.attemptLog = settings.attemptsTopic
      ? new AttemptLog(new BatchingProducer(this.producer, { ...DEFAULT_BATCHING, compression: compressionType(settings.kafkaCompression) }), this.topics.deliveryAttempts, metrics, logger)
      : undefined;
    this.client = new UndiciWebhookClient(
      { connectionsPerOrigin: settings.maxInFlightPerDestination, blockPrivateAddresses: settings.blockPrivateAddresses },
      systemClock,
    );
    const worker = new DeliveryWorker({
      topics: this.topics,
      consumerGroup: groupId,
      destination: (id) => workspace.destination(id),
      client: this.client,
      breakers: new CircuitBreakers(settings.breakerFailureThreshold, settings.breakerOpenMs, systemClock),
      limiter: new DestinationLimiter(settings.maxInFlightPerDestination),
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
      metrics,
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
      metrics,
    );
    this.retryBacklog = new RetryBacklog(this.kafka, groupId, settings.retryScheduleMs.map((_, i) => this.topics.retry(i + 1)));
    this.deadLetters = new DeadLetterStore(this.kafka, this.topics, produce, logger, metrics);
    this.producer.on(this.producer.events.CONNECT, () => (this.producerConnected = true));
    this.producer.on(this.producer.events.DISCONNECT, () => (this.producerConnected = false));
    this.consumer.onMembershipChange((joined) => (this.consumerJoined = joined));
    readiness.register('kafka', () => this.producerConnected && this.consumerJoined);
  }

  async onModuleInit(): Promise<void> {
    const numPartitions = this.settings.topicPartitions;
    const retryTopics = this.settings.retryScheduleMs.map((_, i) => this.topics.retry(i + 1));
    const attempts = this.attemptLog
      ? [{ topic: this.topics.deliveryAttempts, numPartitions, configs: { 'retention.ms': String(this.settings.attemptsRetentionMs) } }]
      : [];
    await ensureTopics(this.kafka, [...[this.topics.deliveries, ...retryTopics, this.topics.deliveriesDead].map((topic) => ({ topic, numPartitions })), ...attempts]);
    await this.producer.connect();
    await this.consumer.start();
    measureRetryBacklogWith(this.retryBacklog);
    this.logger.info({ brokers: this.settings.kafkaBrokers, namespace: this.settings.topicNamespace }, 'delivery consuming');
  }

  async beforeApplicationShutdown(): Promise<void> {
    measureRetryBacklogWith(undefined);
    await this.retryBacklog.close();
    await this.consumer.stop();
    await this.batching.drain();
    await this.attemptLog?.drain();
    await this.producer.disconnect();
    await this.client.close();
    this.logger.info('delivery stopped: in-flight jobs finished or left for re-delivery, offsets committed');
  }
}
