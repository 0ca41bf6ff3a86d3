import { BeforeApplicationShutdown, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { TopicNames, topicTable } from '@switchyard/contracts';
import { TopicSettings, topicPolicy, topicSpecs } from '@switchyard/config';
import { ensureTopics, KafkaClient, untilBrokersAnswer } from '@switchyard/kafka';
import { Readiness } from '@switchyard/telemetry';
import { WorkspaceTopic } from '@switchyard/workspace';
import { KAFKA_CLIENT, TOPICS } from './service.tokens';

export const WORKSPACE_TOPIC_SETTINGS = Symbol('WORKSPACE_TOPIC_SETTINGS');

/**
 * Keeps a service's workspace in step with the workspace topic: reads it whole before the
 * service serves (start-up waits for it, and readiness says so), then applies each change as it
 * arrives. The topic is made sure of here too, since the service's other start-up steps run
 * beside this one; like them it waits for brokers that are away, for as long as they are (the
 * service's own Kafka start-up tells the wait).
 */
@Injectable()
export class WorkspaceFollower implements OnModuleInit, BeforeApplicationShutdown {
  constructor(
    private readonly workspace: WorkspaceTopic,
    @Inject(KAFKA_CLIENT) private readonly kafka: KafkaClient,
    @Inject(TOPICS) private readonly topics: TopicNames,
    @Inject(WORKSPACE_TOPIC_SETTINGS) private readonly settings: TopicSettings,
    readiness: Readiness,
  ) {
    readiness.register('workspace', () => workspace.ready);
  }

  async onModuleInit(): Promise<void> {
    const row = topicTable(this.topics, 0).filter((t) => t.name === this.topics.workspace);
    await untilBrokersAnswer(() =>
      ensureTopics(this.kafka, topicSpecs(row, this.settings), topicPolicy(this.settings)),
    );
    await this.workspace.follow(this.kafka, this.topics.workspace);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.workspace.stop();
  }
}
