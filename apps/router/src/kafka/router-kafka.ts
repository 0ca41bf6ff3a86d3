import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { TopicNames, TopicRow, topicsOf } from '@switchyard/contracts';
import { topicPolicy, topicSpecs } from '@switchyard/config';
import {
  BrokerProbe,
  compressionType,
  ConsumerLagMonitor,
  ensureTopics,
  exportConsumerLag,
  KafkaClient,
  KafkaConnection,
  retryTransient,
  startKafka,
  TopicSpec,
} from '@switchyard/kafka';
import { Readiness } from '@switchyard/telemetry';
import { ConsumeTransformProduce } from '../pipeline/consume-transform-produce';
import { BatchHandler } from '../pipeline/batch-handler';
import { RouterSettings, routerGroupId } from '../router-settings';
import { KAFKA_CLIENT, KAFKA_CONNECTION, LOGGER, TOPICS } from '../router.tokens';
import { AudienceSyncHandler } from '../audiences/audience-sync.handler';
import { DeletionHandler } from '../deletions/deletion.handler';
import { EventRoutingHandler } from '../events/event-routing.handler';

/**
 * The router's Kafka side: creates the topics it reads and writes, then runs one
 * consume-transform-produce pipeline per input, each its own consumer group so a slow
 * audience resync never holds up live events. Ready once every pipeline has joined its group,
 * and while the brokers answer.
 */
@Injectable()
export class RouterKafka implements OnModuleInit, OnApplicationShutdown {
  private readonly pipelines: ConsumeTransformProduce[];
  private readonly lag: ConsumerLagMonitor;
  private stopExportingLag: (() => Promise<void>) | undefined;
  private readonly probe: BrokerProbe;

  constructor(
    @Inject(KAFKA_CLIENT) private readonly kafka: KafkaClient,
    @Inject(KAFKA_CONNECTION) private readonly connection: KafkaConnection,
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
    this.lag = new ConsumerLagMonitor(
      kafka,
      this.pipelines.map((p) => ({ groupId: p.options.groupId, topics: p.options.topics })),
    );
    this.probe = new BrokerProbe(kafka);
    readiness.register('kafka', () => this.pipelines.every((p) => p.isRunning) && this.probe.reachable);
  }

  async onModuleInit(): Promise<void> {
    const [sized, changelog] = partition(
      topicsOf('router', this.topics),
      (row) => row.partitions !== 'audiences',
    );
    await startKafka({
      kafka: this.kafka,
      connection: this.connection,
      topics: topicSpecs(sized, this.settings),
      policy: topicPolicy(this.settings),
      logger: this.logger,
      // The changelog's partition count is read back from the audiences topic, so it comes second.
      connect: async () => {
        await this.ensureChangelog(changelog);
        await Promise.all(this.pipelines.map((p) => retryTransient(() => p.start())));
      },
    });
    this.stopExportingLag = exportConsumerLag(this.lag);
    await this.probe.start();
    this.logger.info(
      { brokers: this.settings.kafkaBrokers, transactional: this.settings.transactional },
      'router consuming',
    );
  }

  /**
   * The membership changelog is compacted (latest record per member) and has exactly as many
   * partitions as the audiences topic, which may have been created earlier by ingest with its
   * own count: changelog partition p holds the state of audiences partition p.
   */
  private async ensureChangelog(rows: TopicRow[]): Promise<void> {
    const inputPartitions = await this.partitionCount(this.topics.audiences);
    await this.ensureTopics(topicSpecs(rows, this.settings, { audiencesPartitions: inputPartitions }));
    const changelogPartitions = await this.partitionCount(this.topics.audienceMembership);
    if (changelogPartitions !== inputPartitions) {
      throw new Error(
        `${this.topics.audienceMembership} has ${changelogPartitions} partitions but ${this.topics.audiences} has ${inputPartitions}; they must match`,
      );
    }
  }

  private ensureTopics(specs: TopicSpec[]): Promise<void> {
    return ensureTopics(this.kafka, specs, topicPolicy(this.settings));
  }

  private async partitionCount(topic: string): Promise<number> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      // The broker asked may not know a topic another broker just reported created.
      const { topics } = await retryTransient(() => admin.fetchTopicMetadata({ topics: [topic] }));
      return topics[0].partitions.length;
    } finally {
      await admin.disconnect();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.probe.stop();
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

/** The rows that pass `test`, then the rest. */
function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}
