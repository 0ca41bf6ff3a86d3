import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { TopicNames } from '@switchyard/contracts';
import { Workspace } from '@switchyard/config';
import { KafkaClient } from '@switchyard/kafka';
import { AdminToken, AdminTokenGuard, SERVICE_EXPORTS, serviceProviders } from '@switchyard/service';
import { ObservabilityModule } from '@switchyard/telemetry';
import { systemClock } from './clock';
import { DeadLetterController } from './dead-letters/dead-letter.controller';
import { DeadLetterStore } from './dead-letters/dead-letter-store';
import { DeliveryMetrics } from './delivery-metrics';
import { deliveryGroupId, DeliverySettings } from './delivery-settings';
import { KAFKA_CLIENT, LOGGER, TOPICS, WEBHOOK_CLIENT } from './delivery.tokens';
import { UndiciWebhookClient } from './http/undici-webhook-client';
import { WebhookHttpClient } from './http/webhook-http-client';
import { CircuitBreakers } from './isolation/circuit-breaker';
import { DestinationLimiter } from './isolation/destination-limiter';
import { RateGate } from './isolation/rate-gate';
import { DeliveryKafka } from './kafka/delivery-kafka';
import { DeliveryProducer } from './kafka/delivery-producer';
import { DeliveryWorker } from './pipeline/delivery-worker';

/**
 * What the rest of delivery shares: settings, logger, topics, workspace, metrics, the Kafka
 * client and the producer. Nest starts this module before DeliveryModule and stops it after, so
 * the producer outlives the consumer's drain.
 */
@Global()
@Module({})
class DeliveryCoreModule {
  static forRoot(settings: DeliverySettings, logger: Logger, workspace: Workspace): DynamicModule {
    return {
      module: DeliveryCoreModule,
      providers: [
        { provide: DeliverySettings, useValue: settings },
        ...serviceProviders('delivery', settings, logger, workspace),
        { provide: DeliveryMetrics, useFactory: () => new DeliveryMetrics() },
        DeliveryProducer,
      ],
      exports: [DeliverySettings, ...SERVICE_EXPORTS, DeliveryMetrics, DeliveryProducer],
    };
  }
}

/**
 * A rate-limited job whose send slot is at most this far away waits for it in memory; a later
 * slot is waited for in a retry topic. One second of a destination's rate per instance is the
 * most memory a throttled destination holds.
 */
const MAX_RATE_WAIT_IN_MEMORY_MS = 1000;

function webhookClient(settings: DeliverySettings): WebhookHttpClient {
  return new UndiciWebhookClient(
    {
      connectionsPerOrigin: settings.maxInFlightPerDestination,
      blockPrivateAddresses: settings.blockPrivateAddresses,
    },
    systemClock,
  );
}

function deliveryWorker(
  settings: DeliverySettings,
  topics: TopicNames,
  workspace: Workspace,
  client: WebhookHttpClient,
  breakers: CircuitBreakers,
  limiter: DestinationLimiter,
  rateGate: RateGate,
  producer: DeliveryProducer,
  metrics: DeliveryMetrics,
  logger: Logger,
): DeliveryWorker {
  return new DeliveryWorker({
    topics,
    consumerGroup: deliveryGroupId(settings),
    destination: (id) => workspace.destination(id),
    client,
    breakers,
    limiter,
    rateGate,
    clock: systemClock,
    random: Math.random,
    produce: producer.send,
    policy: {
      schedule: {
        delaysMs: settings.retryScheduleMs,
        tiersMs: settings.retryScheduleMs,
        jitterRatio: settings.retryJitterRatio,
        retryAfterMaxMs: settings.retryAfterMaxMs,
      },
      windowMs: settings.retryWindowMs,
    },
    userAgentToken: settings.userAgentToken,
    requestTimeoutMs: settings.requestTimeoutMs,
    logger,
    metrics,
    attempts: producer.attemptLog,
  });
}

/**
 * Delivery: the worker and its guards, the consumer that feeds it, and the dead-letter admin
 * API. On shutdown the consumer drains (DeliveryKafka), the producer sends what the jobs left
 * (DeliveryProducer, in the core module), and last this module closes the webhook client.
 */
@Module({})
export class DeliveryModule implements OnApplicationShutdown {
  constructor(
    @Inject(WEBHOOK_CLIENT) private readonly client: WebhookHttpClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  static forRoot(settings: DeliverySettings, logger: Logger, workspace: Workspace): DynamicModule {
    return {
      module: DeliveryModule,
      imports: [ObservabilityModule, DeliveryCoreModule.forRoot(settings, logger, workspace)],
      controllers: [DeadLetterController],
      providers: [
        { provide: WEBHOOK_CLIENT, useFactory: webhookClient, inject: [DeliverySettings] },
        {
          provide: CircuitBreakers,
          useFactory: (s: DeliverySettings) =>
            new CircuitBreakers(s.breakerFailureThreshold, s.breakerOpenMs, systemClock),
          inject: [DeliverySettings],
        },
        {
          provide: DestinationLimiter,
          useFactory: (s: DeliverySettings) => new DestinationLimiter(s.maxInFlightPerDestination),
          inject: [DeliverySettings],
        },
        {
          provide: RateGate,
          useFactory: (s: DeliverySettings) =>
            new RateGate(systemClock, {
              maxWaitInMemoryMs: MAX_RATE_WAIT_IN_MEMORY_MS,
              maxDeferMs: s.retryScheduleMs[s.retryScheduleMs.length - 1],
            }),
          inject: [DeliverySettings],
        },
        {
          provide: DeliveryWorker,
          useFactory: deliveryWorker,
          inject: [
            DeliverySettings,
            TOPICS,
            Workspace,
            WEBHOOK_CLIENT,
            CircuitBreakers,
            DestinationLimiter,
            RateGate,
            DeliveryProducer,
            DeliveryMetrics,
            LOGGER,
          ],
        },
        {
          provide: DeadLetterStore,
          useFactory: (
            kafka: KafkaClient,
            topics: TopicNames,
            producer: DeliveryProducer,
            logger: Logger,
            metrics: DeliveryMetrics,
          ) => new DeadLetterStore(kafka, topics, producer.send, logger, metrics),
          inject: [KAFKA_CLIENT, TOPICS, DeliveryProducer, LOGGER, DeliveryMetrics],
        },
        DeliveryKafka,
        { provide: AdminToken, useValue: new AdminToken(settings.adminToken) },
        AdminTokenGuard,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
    this.logger.info('delivery stopped: in-flight jobs finished or left for re-delivery, offsets committed');
  }
}
