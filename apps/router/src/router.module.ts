import { DynamicModule, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { TopicNames } from '@switchyard/contracts';
import { Workspace } from '@switchyard/config';
import { KafkaClient } from '@switchyard/kafka';
import { serviceProviders } from '@switchyard/service';
import { ObservabilityModule } from '@switchyard/telemetry';
import { AudienceSyncHandler } from './audiences/audience-sync.handler';
import { MembershipRestorer } from './audiences/membership-restorer';
import { DeletionHandler } from './deletions/deletion.handler';
import { EventRoutingHandler } from './events/event-routing.handler';
import { RouterKafka } from './kafka/router-kafka';
import { RouterSettings, routerGroupId } from './router-settings';
import { KAFKA_CLIENT, TOPICS } from './router.tokens';

/** The router: no HTTP API of its own beyond health and metrics; its work is the Kafka pipelines. */
@Module({})
export class RouterModule {
  static forRoot(settings: RouterSettings, logger: Logger, workspace: Workspace): DynamicModule {
    return {
      module: RouterModule,
      imports: [ObservabilityModule],
      providers: [
        { provide: RouterSettings, useValue: settings },
        ...serviceProviders('router', settings, logger, workspace),
        EventRoutingHandler,
        DeletionHandler,
        {
          provide: MembershipRestorer,
          useFactory: (kafka: KafkaClient, topics: TopicNames) =>
            new MembershipRestorer(
              kafka,
              topics.audienceMembership,
              routerGroupId(settings, 'audiences'),
              logger.child({ component: 'restore' }),
            ),
          inject: [KAFKA_CLIENT, TOPICS],
        },
        AudienceSyncHandler,
        RouterKafka,
      ],
    };
  }
}
