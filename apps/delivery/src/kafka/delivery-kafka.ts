import { BeforeApplicationShutdown, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { TopicNames } from '@switchyard/contracts';
import { Workspace } from '@switchyard/config';
import {
  BrokerProbe,
  ConsumerLagMonitor,
  exportConsumerLag,
  KafkaClient,
  untilBrokersAnswer,
} from '@switchyard/kafka';
import { Readiness } from '@switchyard/telemetry';
import { systemClock } from '../clock';
import { DeliveryConsumer } from '../consumer/delivery-consumer';
import { DeliveryMetrics, readLiveStateFrom } from '../delivery-metrics';
import { deliveryGroupId, DeliverySettings } from '../delivery-settings';
import { KAFKA_CLIENT, LOGGER, TOPICS } from '../delivery.tokens';
import { CircuitBreakers } from '../isolation/circuit-breaker';
import { DestinationLimiter } from '../isolation/destination-limiter';
import { RateGate } from '../isolation/rate-gate';
import { DeliveryWorker } from '../pipeline/delivery-worker';
import { DeliveryProducer } from './delivery-producer';
import { RateShare } from './rate-share';

/**
 * Delivery's consuming side: joins the group on the deliveries and retry topics and feeds the
 * worker; exports the metrics read from live state (breakers, limiter, consumer lag). Shutdown
 * stops fetching and lets in-flight jobs finish within the grace bound, then commits. Ready
 * while the group is joined, the producer is connected and the brokers answer.
 */
@Injectable()
export class DeliveryKafka implements OnModuleInit, BeforeApplicationShutdown {
  private readonly consumer: DeliveryConsumer;
  private readonly lag: ConsumerLagMonitor;
  private readonly probe: BrokerProbe;
  private readonly retryTopics: string[];
  private stopExportingLag: (() => Promise<void>) | undefined;
  private stopConfiguringMetrics: (() => void) | undefined;
  private consumerJoined = false;

  constructor(
    @Inject(KAFKA_CLIENT) kafka: KafkaClient,
    private readonly settings: DeliverySettings,
    @Inject(TOPICS) topics: TopicNames,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly workspace: Workspace,
    private readonly metrics: DeliveryMetrics,
    private readonly breakers: CircuitBreakers,
    private readonly limiter: DestinationLimiter,
    private readonly rateGate: RateGate,
    producer: DeliveryProducer,
    worker: DeliveryWorker,
    readiness: Readiness,
  ) {
    const groupId = deliveryGroupId(settings);
    this.retryTopics = settings.retryScheduleMs.map((_, i) => topics.retry(i + 1));
    this.consumer = new DeliveryConsumer(
      kafka,
      worker,
      topics,
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
    this.lag = new ConsumerLagMonitor(kafka, [{ groupId, topics: [topics.deliveries, ...this.retryTopics] }]);
    this.probe = new BrokerProbe(kafka);
    this.consumer.onMembershipChange((joined) => (this.consumerJoined = joined));
    const rateShare = new RateShare(kafka, this.consumer.subscribedTopics, rateGate, logger);
    this.consumer.onAssignment((assignment) => void rateShare.assigned(assignment));
    readiness.register('kafka', () => producer.isConnected && this.consumerJoined && this.probe.reachable);
  }

  async onModuleInit(): Promise<void> {
    const configureMetrics = () =>
      this.metrics.configure(
        this.workspace.config.destinations.map((d) => d.id),
        this.retryTopics.length,
      );
    configureMetrics();
    this.stopConfiguringMetrics = this.workspace.onChange(configureMetrics);
    // Beside the producer's Kafka start-up, which tells the wait for brokers that are away.
    await untilBrokersAnswer(() => this.consumer.start());
    await this.probe.start();
    readLiveStateFrom({
      destinations: () => this.workspace.config.destinations,
      breakers: this.breakers,
      limiter: this.limiter,
      rateGate: this.rateGate,
      lag: this.lag,
      retryTopics: this.retryTopics,
    });
    this.stopExportingLag = exportConsumerLag(this.lag);
    this.logger.info(
      { brokers: this.settings.kafkaBrokers, namespace: this.settings.topicNamespace },
      'delivery consuming',
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    readLiveStateFrom(undefined);
    this.stopConfiguringMetrics?.();
    await this.probe.stop();
    await (this.stopExportingLag?.() ?? this.lag.close());
    await this.consumer.stop();
  }
}
