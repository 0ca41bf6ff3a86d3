import { BeforeApplicationShutdown, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { DELIVERY_ATTEMPTS_DEFAULT_RETENTION_MS, topicNames } from '@switchyard/contracts';
import { WorkspaceConfigStore } from '@switchyard/config';
import { createKafka, ensureTopics } from '@switchyard/kafka';
import { Readiness } from '@switchyard/telemetry';
import { consoleMetrics, measureIndexWith } from './console-metrics';
import { ConsoleSettings } from './console-settings';
import { LOGGER } from './console.tokens';
import { AttemptIndex } from './index/attempt-index';
import { CallSample } from './index/call-sample';
import { DeadLetterIndex } from './index/dead-letter-index';
import { ConsoleFeed, ConsoleIndexes } from './kafka/console-feed';

/** The console's state and its Kafka feed, wired once; ready once the index is rebuilt. */
@Injectable()
export class ConsoleRuntime implements ConsoleIndexes, OnModuleInit, BeforeApplicationShutdown {
  readonly attempts: AttemptIndex;
  readonly calls: CallSample;
  readonly deadLetters: DeadLetterIndex;
  private readonly kafka: Kafka;
  private readonly feed: ConsoleFeed;

  constructor(
    private readonly settings: ConsoleSettings,
    @Inject(LOGGER) private readonly logger: Logger,
    workspace: WorkspaceConfigStore,
    readiness: Readiness,
  ) {
    this.attempts = new AttemptIndex(settings.maxAttempts);
    this.calls = new CallSample(settings.callsPerSource, (id) => workspace.source(id) !== undefined);
    this.deadLetters = new DeadLetterIndex(settings.maxDeadLetters);
    this.kafka = createKafka('switchyard-console', settings.kafkaBrokers, logger);
    this.feed = new ConsoleFeed(this.kafka, topicNames(settings.topicNamespace), this, consoleMetrics(), logger);
    readiness.register('kafka', () => this.feed.ready);
  }

  async onModuleInit(): Promise<void> {
    const topics = topicNames(this.settings.topicNamespace);
    const numPartitions = this.settings.topicPartitions;
    // Delivery owns the attempts topic (and its retention setting); whichever starts first creates it.
    await ensureTopics(this.kafka, [
      { topic: topics.events, numPartitions },
      { topic: topics.deliveriesDead, numPartitions },
      { topic: topics.deliveryAttempts, numPartitions, configs: { 'retention.ms': String(DELIVERY_ATTEMPTS_DEFAULT_RETENTION_MS) } },
    ]);
    await this.feed.start();
    measureIndexWith(this);
    this.logger.info({ namespace: this.settings.topicNamespace, maxAttempts: this.settings.maxAttempts }, 'console reading attempts and events');
  }

  async beforeApplicationShutdown(): Promise<void> {
    measureIndexWith(undefined);
    await this.feed.stop();
  }
}
