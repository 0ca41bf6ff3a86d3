import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { TopicNames } from '@switchyard/contracts';
import { compressionType, ConsumerLagMonitor, ensureTopics, exportConsumerLag } from '@switchyard/kafka';
import { Readiness } from '@switchyard/telemetry';
import { ConsumeTransformProduce } from '../pipeline/consume-transform-produce';
import { BatchHandler } from '../pipeline/batch-handler';
import { RouterSettings, routerGroupId } from '../router-settings';
import { LOGGER, TOPICS } from '../router.tokens';
import { AudienceSyncHandler } from '../audiences/audience-sync.handler';
import { DeletionHandler } from '../deletions/deletion.handler';
import { EventRoutingHandler } from '../events/event-routing.handler';

/**
 * The router's Kafka side: creates the topics it reads and writes, then runs one
 * consume-transform-produce pipeline per input, each its own consumer group so a slow
 * audience resync never holds up live events. Ready once every pipeline has joined its group.
 */
@Injectable()
export class RouterKafka implements OnModuleInit, OnApplicationShutdown {
  private readonly pipelines: ConsumeTransformProduce[];
  private readonly lag: ConsumerLagMonitor;
  private stopExportingLag: (() => Promise<void>) | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly settings: RouterSettings,
    @Inject(TOPICS) private readonly topics: TopicNames,
    @Inject(LOGGER) private readonly logger: Logger,
    readiness: Readiness,
    events: EventRoutingHandler,
    deletions: DeletionHandler,
    audiences: AudienceSyncHandler,
  ) {
    this.pipelines = [
      this.pipeline('events', [topics.events], events),
      this.pipeline('deletions', [topics.deletions], deletions),
      this.pipeline('audiences', [topics.audiences], audiences),
    ];
    readiness.register('kafka', () => this.pipelines.every((p) => p.isRunning));
    this.lag = new ConsumerLagMonitor(kafka, this.pipelines.map((p) => ({ groupId: p.options.groupId, topics: p.options.topics })));
  }

  async onModuleInit(): Promise<void> {
    const partitions = this.settings.topicPartitions;
    await ensureTopics(this.kafka, [
      { topic: this.topics.events, numPartitions: partitions },
      { topic: this.topics.eventsDead, numPartitions: 1 },
      { topic: this.topics.deliveries, numPartitions: partitions },
      { topic: this.topics.deletions, numPartitions: 1 },
      { topic: this.topics.audiences, numPartitions: partitions },
    ]);
    await this.ensureChangelog();
    await Promise.all(this.pipelines.map((p) => p.start()));
    this.stopExportingLag = exportConsumerLag(this.lag);
    this.logger.info({ brokers: this.settings.kafkaBrokers, transactional: this.settings.transactional }, 'router consuming');
  }

  /**
   * The membership changelog is compacted (latest record per member) and has exactly as many
   * partitions as the audiences topic, which may have been created earlier by ingest with its
   * own count: changelog partition p holds the state of audiences partition p.
   */
  private async ensureChangelog(): Promise<void> {
    const inputPartitions = await this.partitionCount(this.topics.audiences);
    await ensureTopics(this.kafka, [{ topic: this.topics.audienceMembership, numPartitions: inputPartitions, configs: { 'cleanup.policy': 'compact' } }]);
    const changelogPartitions = await this.partitionCount(this.topics.audienceMembership);
    if (changelogPartitions !== inputPartitions) {
      throw new Error(`${this.topics.audienceMembership} has ${changelogPartitions} partitions but ${this.topics.audiences} has ${inputPartitions}; they must match`);
    }
  }

  private async partitionCount(topic: string): Promise<number> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      return topics[0].partitions.length;
    } finally {
      await admin.disconnect();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await (this.stopExportingLag?.() ?? this.lag.close());
    await Promise.all(this.pipelines.map((p) => p.stop()));
  }

  private pipeline(name: string, inputTopics: string[], handler: BatchHandler): ConsumeTransformProduce {
    const options = {
      name,
      groupId: routerGroupId(this.settings, name),
      topics: inputTopics,
      transactional: this.settings.transactional,
      compression: compressionType(this.settings.kafkaCompression),
      sessionTimeoutMs: this.settings.kafkaSessionTimeoutMs,
      commitIntervalMs: this.settings.commitIntervalMs,
    };
    return new ConsumeTransformProduce(this.kafka, options, handler, this.logger.child({ pipeline: name }));
  }
}
