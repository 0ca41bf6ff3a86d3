import type { Provider } from '@nestjs/common';
import type { Logger } from 'pino';
import { topicNames } from '@switchyard/contracts';
import { kafkaConnection, TopicSettings, Workspace } from '@switchyard/config';
import { createKafka, KafkaConnection } from '@switchyard/kafka';
import { WorkspaceTopic } from '@switchyard/workspace';
import { KAFKA_CLIENT, KAFKA_CONNECTION, LOGGER, TOPICS } from './service.tokens';
import { WORKSPACE_TOPIC_SETTINGS, WorkspaceFollower } from './workspace-follower';

/** What every service provides alike: its logger, topic names, workspace, and Kafka connection and client. */
export function serviceProviders(
  service: string,
  settings: Parameters<typeof kafkaConnection>[0] & TopicSettings & { topicNamespace: string },
  logger: Logger,
  workspace: Workspace,
): Provider[] {
  const follower: Provider[] =
    workspace instanceof WorkspaceTopic
      ? [
          { provide: WorkspaceTopic, useValue: workspace },
          { provide: WORKSPACE_TOPIC_SETTINGS, useValue: settings },
          WorkspaceFollower,
        ]
      : [];
  return [
    ...follower,
    { provide: LOGGER, useValue: logger },
    { provide: TOPICS, useValue: topicNames(settings.topicNamespace) },
    // A file store holds a valid configuration from start-up on (a bad edit keeps the previous
    // one); a topic-backed one is made ready by its WorkspaceFollower.
    { provide: Workspace, useValue: workspace },
    { provide: KAFKA_CONNECTION, useFactory: () => kafkaConnection(settings) },
    {
      provide: KAFKA_CLIENT,
      useFactory: (connection: KafkaConnection) => createKafka(`switchyard-${service}`, connection, logger),
      inject: [KAFKA_CONNECTION],
    },
  ];
}

/** The tokens of serviceProviders, for a core module that shares them with the rest of its app. */
export const SERVICE_EXPORTS = [LOGGER, TOPICS, Workspace, KAFKA_CONNECTION, KAFKA_CLIENT];
