import { BeforeApplicationShutdown, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { TopicNames, topicsOf } from '@switchyard/contracts';
import { topicPolicy, topicSpecs } from '@switchyard/config';
import { BrokerProbe, KafkaClient, KafkaConnection, startKafka } from '@switchyard/kafka';
import { Readiness } from '@switchyard/telemetry';
import { consoleMetrics, measureIndexWith } from '../console-metrics';
import { ConsoleSettings } from '../console-settings';
import { INDEXES, KAFKA_CLIENT, KAFKA_CONNECTION, LOGGER, TOPICS } from '../console.tokens';
import type { ConsoleIndexes } from '../index/console-indexes';
import { ConsoleFeed } from './console-feed';

/** The console's Kafka side: creates the topics it reads and feeds the indexes; ready once they are rebuilt, and while the brokers answer. */
@Injectable()
export class ConsoleKafka implements OnModuleInit, BeforeApplicationShutdown {
  /** Whether the brokers answer: readiness, and the management API's writes, which fail fast without them. */
  readonly probe: BrokerProbe;
  private readonly feed: ConsoleFeed;

  constructor(
    @Inject(KAFKA_CLIENT) private readonly kafka: KafkaClient,
    @Inject(KAFKA_CONNECTION) private readonly connection: KafkaConnection,
    private readonly settings: ConsoleSettings,
    @Inject(TOPICS) private readonly topics: TopicNames,
    @Inject(INDEXES) private readonly indexes: ConsoleIndexes,
    @Inject(LOGGER) private readonly logger: Logger,
    readiness: Readiness,
  ) {
    this.probe = new BrokerProbe(kafka);
    this.feed = new ConsoleFeed(kafka, topics, indexes, consoleMetrics(), logger);
    readiness.register('kafka', () => this.feed.ready && this.probe.reachable);
  }

  async onModuleInit(): Promise<void> {
    await startKafka({
      kafka: this.kafka,
      connection: this.connection,
      topics: topicSpecs(topicsOf('console', this.topics), this.settings),
      policy: topicPolicy(this.settings),
      logger: this.logger,
      connect: () => this.feed.start(),
    });
    await this.probe.start();
    measureIndexWith(this.indexes);
    this.logger.info(
      { namespace: this.settings.topicNamespace, maxAttempts: this.settings.maxAttempts },
      'console reading attempts and events',
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    measureIndexWith(undefined);
    await this.probe.stop();
    await this.feed.stop();
  }
}
