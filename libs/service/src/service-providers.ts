import type { Provider } from '@nestjs/common';
import type { Logger } from 'pino';
import { topicNames } from '@switchyard/contracts';
import { kafkaConnection, WorkspaceConfigStore } from '@switchyard/config';
import { createKafka, KafkaConnection } from '@switchyard/kafka';
import { KAFKA_CLIENT, KAFKA_CONNECTION, LOGGER, TOPICS } from './service.tokens';

/** What every service provides alike: its logger, topic names, workspace, and Kafka connection and client. */
export function serviceProviders(
  service: string,
  settings: Parameters<typeof kafkaConnection>[0] & { topicNamespace: string },
  logger: Logger,
  workspace: WorkspaceConfigStore,
): Provider[] {
  return [
    { provide: LOGGER, useValue: logger },
    { provide: TOPICS, useValue: topicNames(settings.topicNamespace) },
    // The store holds a valid configuration from start-up on (a bad edit keeps the previous one), so it is no readiness check.
    { provide: WorkspaceConfigStore, useValue: workspace },
    { provide: KAFKA_CONNECTION, useFactory: () => kafkaConnection(settings) },
    {
      provide: KAFKA_CLIENT,
      useFactory: (connection: KafkaConnection) => createKafka(`switchyard-${service}`, connection, logger),
      inject: [KAFKA_CONNECTION],
    },
  ];
}

/** The tokens of serviceProviders, for a core module that shares them with the rest of its app. */
export const SERVICE_EXPORTS = [LOGGER, TOPICS, WorkspaceConfigStore, KAFKA_CONNECTION, KAFKA_CLIENT];
