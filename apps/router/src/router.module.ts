import { DynamicModule, Module } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { topicNames, TopicNames } from '@switchyard/contracts';
import { kafkaConnection, WorkspaceConfigStore } from '@switchyard/config';
import { createKafka } from '@switchyard/kafka';
import { ObservabilityModule } from '@switchyard/telemetry';
import { AudienceSyncHandler } from './audiences/audience-sync.handler';
import { MembershipRestorer } from './audiences/membership-restorer';
import { DeletionHandler } from './deletions/deletion.handler';
import { EventRoutingHandler } from './events/event-routing.handler';
import { RouterKafka } from './kafka/router-kafka';
import { RouterSettings, routerGroupId } from './router-settings';
import { KAFKA_CONNECTION, LOGGER, TOPICS } from './router.tokens';

/** The router: no HTTP API of its own beyond health and metrics; its work is the Kafka pipelines. */
@Module({})
export class RouterModule {
  static forRoot(settings: RouterSettings, logger: Logger, workspace: WorkspaceConfigStore): DynamicModule {
    const connection = kafkaConnection(settings);
    return {
      module: RouterModule,
      imports: [ObservabilityModule],
      providers: [
        { provide: RouterSettings, useValue: settings },
        { provide: LOGGER, useValue: logger },
        { provide: TOPICS, useValue: topicNames(settings.topicNamespace) },
        { provide: KAFKA_CONNECTION, useValue: connection },
        { provide: Kafka, useValue: createKafka('switchyard-router', connection, logger) },
        // The store holds a valid configuration from start-up on (a bad edit keeps the previous one), so it is no readiness check.
        { provide: WorkspaceConfigStore, useValue: workspace },
        EventRoutingHandler,
        DeletionHandler,
        {
          provide: MembershipRestorer,
          useFactory: (kafka: Kafka, topics: TopicNames) =>
            new MembershipRestorer(
              kafka,
              topics.audienceMembership,
              routerGroupId(settings, 'audiences'),
              logger.child({ component: 'restore' }),
            ),
          inject: [Kafka, TOPICS],
        },
        AudienceSyncHandler,
        RouterKafka,
      ],
    };
  }
}
