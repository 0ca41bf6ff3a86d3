import { DynamicModule, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { Kafka } from 'kafkajs';
import { topicNames } from '@switchyard/contracts';
import { kafkaConnection, WorkspaceConfigStore } from '@switchyard/config';
import { createKafka, KafkaConnection } from '@switchyard/kafka';
import { AdminToken, AdminTokenGuard } from '@switchyard/service';
import { ObservabilityModule } from '@switchyard/telemetry';
import { ConsoleApiController } from './api/console-api.controller';
import { ConsoleAuthGuard } from './auth/console-auth.guard';
import { ConsoleSessions } from './auth/console-sessions';
import { ConsoleSettings } from './console-settings';
import { ConsoleViews } from './console-views';
import { INDEXES, KAFKA_CONNECTION, LOGGER, TOPICS } from './console.tokens';
import { AttemptIndex } from './index/attempt-index';
import { CallSample } from './index/call-sample';
import { DeadLetterIndex } from './index/dead-letter-index';
import { ConsoleIndexes } from './index/console-indexes';
import { ConsoleKafka } from './kafka/console-kafka';
import { DeliveryReplay } from './replay/delivery-replay';
import { ConsolePagesController } from './web/console-pages.controller';

@Module({})
export class ConsoleModule {
  static forRoot(settings: ConsoleSettings, logger: Logger, workspace: WorkspaceConfigStore): DynamicModule {
    return {
      module: ConsoleModule,
      imports: [ObservabilityModule],
      controllers: [ConsoleApiController, ConsolePagesController],
      providers: [
        { provide: ConsoleSettings, useValue: settings },
        { provide: LOGGER, useValue: logger },
        { provide: TOPICS, useValue: topicNames(settings.topicNamespace) },
        { provide: KAFKA_CONNECTION, useFactory: () => kafkaConnection(settings) },
        {
          provide: Kafka,
          useFactory: (connection: KafkaConnection) => createKafka('switchyard-console', connection, logger),
          inject: [KAFKA_CONNECTION],
        },
        // The store holds a valid configuration from start-up on (a bad edit keeps the previous one), so it is no readiness check.
        { provide: WorkspaceConfigStore, useValue: workspace },
        {
          provide: INDEXES,
          useFactory: (): ConsoleIndexes => ({
            attempts: new AttemptIndex(settings.maxAttempts),
            calls: new CallSample(settings.callsPerSource, (id) => workspace.source(id) !== undefined),
            deadLetters: new DeadLetterIndex(settings.maxDeadLetters),
          }),
        },
        ConsoleKafka,
        ConsoleViews,
        { provide: AdminToken, useValue: new AdminToken(settings.adminToken) },
        AdminTokenGuard,
        {
          provide: ConsoleSessions,
          useValue: new ConsoleSessions(settings.adminToken, settings.sessionTtlMs, settings.secureCookie),
        },
        ConsoleAuthGuard,
        { provide: DeliveryReplay, useValue: new DeliveryReplay(settings.deliveryUrl, settings.adminToken) },
      ],
    };
  }
}
