import { BeforeApplicationShutdown, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { topicNames, topicsOf } from '@switchyard/contracts';
import { kafkaConnection, topicPolicy, topicSpecs, WorkspaceConfigStore } from '@switchyard/config';
import { BrokerProbe, checkKafkaConnection, createKafka, ensureTopics, KafkaConnection } from '@switchyard/kafka';
import { Readiness } from '@switchyard/telemetry';
import { consoleMetrics, measureIndexWith } from './console-metrics';
import { ConsoleSettings } from './console-settings';
import { LOGGER } from './console.tokens';
import { AttemptIndex } from './index/attempt-index';
import { CallSample } from './index/call-sample';
import { DeadLetterIndex } from './index/dead-letter-index';
import { ConsoleFeed, ConsoleIndexes } from './kafka/console-feed';

/** The console's state and its Kafka feed, wired once; ready once the index is rebuilt, and while the brokers answer. */
@Injectable()
export class ConsoleRuntime implements ConsoleIndexes, OnModuleInit, BeforeApplicationShutdown {
  readonly attempts: AttemptIndex;
  readonly calls: CallSample;
  readonly deadLetters: DeadLetterIndex;
  private readonly connection: KafkaConnection;
  private readonly kafka: Kafka;
  private readonly probe: BrokerProbe;
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
    this.connection = kafkaConnection(settings);
    this.kafka = createKafka('switchyard-console', this.connection, logger);
    this.probe = new BrokerProbe(this.kafka);
    this.feed = new ConsoleFeed(this.kafka, topicNames(settings.topicNamespace), this, consoleMetrics(), logger);
    readiness.register('kafka', () => this.feed.ready && this.probe.reachable);
  }

  async onModuleInit(): Promise<void> {
    await checkKafkaConnection(this.kafka, this.connection);
    await ensureTopics(this.kafka, topicSpecs(topicsOf('console', topicNames(this.settings.topicNamespace)), this.settings), topicPolicy(this.settings));
    await this.feed.start();
    await this.probe.start();
    measureIndexWith(this);
    this.logger.info({ namespace: this.settings.topicNamespace, maxAttempts: this.settings.maxAttempts }, 'console reading attempts and events');
  }

  async beforeApplicationShutdown(): Promise<void> {
    measureIndexWith(undefined);
    await this.probe.stop();
    await this.feed.stop();
  }
}
