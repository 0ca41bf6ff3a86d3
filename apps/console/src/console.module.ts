import { DynamicModule, Module, Provider } from '@nestjs/common';
import type { Logger } from 'pino';
import { Workspace } from '@switchyard/config';
import { TopicNames } from '@switchyard/contracts';
import { KafkaClient } from '@switchyard/kafka';
import { AdminRequests, ApiTokens, serviceProviders } from '@switchyard/service';
import { ObservabilityModule } from '@switchyard/telemetry';
import { WorkspaceTopic } from '@switchyard/workspace';
import { AdminRequestsController } from './admin-requests/admin-requests.controller';
import { ConsoleRequestSender } from './admin-requests/console-request-sender';
import { ConsoleApiController } from './api/console-api.controller';
import { ConsoleAuthGuard } from './auth/console-auth.guard';
import { ConsoleSessions } from './auth/console-sessions';
import { ConsoleSettings } from './console-settings';
import { ConsoleViews } from './console-views';
import { INDEXES, KAFKA_CLIENT, LOGGER, TOPICS } from './console.tokens';
import { AttemptIndex } from './index/attempt-index';
import { CallSample } from './index/call-sample';
import { DeadLetterIndex } from './index/dead-letter-index';
import { ConsoleIndexes } from './index/console-indexes';
import { ConsoleKafka } from './kafka/console-kafka';
import { DeliveryReplay } from './replay/delivery-replay';
import { DestinationTester } from './web/destination-tester';
import { WEB_PAGE_CONTROLLERS } from './web/web-controllers';
import { AuditTrail } from './workspace/audit-trail';
import { ConsoleWorkspace, loadApiTokens } from './workspace/console-workspace';
import { fileResources, fileWorkspaceLog } from './workspace/file-workspace';
import { IngestDestinationTester } from './workspace/ingest-destination-tester';
import { KafkaWorkspaceLog } from './workspace/kafka-workspace-log';
import { WorkspaceAdmin } from './workspace/workspace-admin';
import { WorkspaceApiController } from './workspace/workspace-api.controller';

/**
 * The management API over the workspace: writes go to the workspace topic (and the console
 * follows it, fills the audit trail and seeds it); with a mounted file the API reads the file and
 * refuses changes.
 */
function workspaceProviders(workspace: Workspace): Provider[] {
  if (!(workspace instanceof WorkspaceTopic))
    return [
      {
        provide: WorkspaceAdmin,
        useValue: new WorkspaceAdmin(fileResources(workspace), fileWorkspaceLog, undefined),
      },
    ];
  return [
    {
      provide: KafkaWorkspaceLog,
      useFactory: (kafka: KafkaClient, topics: TopicNames, consoleKafka: ConsoleKafka) =>
        new KafkaWorkspaceLog(kafka, topics, workspace, consoleKafka.probe),
      inject: [KAFKA_CLIENT, TOPICS, ConsoleKafka],
    },
    {
      provide: WorkspaceAdmin,
      useFactory: (log: KafkaWorkspaceLog) => new WorkspaceAdmin(workspace.resources, log, workspace.cipher),
      inject: [KafkaWorkspaceLog],
    },
    ConsoleWorkspace,
  ];
}

@Module({})
export class ConsoleModule {
  static forRoot(settings: ConsoleSettings, logger: Logger, workspace: Workspace): DynamicModule {
    return {
      module: ConsoleModule,
      imports: [ObservabilityModule],
      controllers: [
        ConsoleApiController,
        WorkspaceApiController,
        AdminRequestsController,
        ...WEB_PAGE_CONTROLLERS,
      ],
      providers: [
        { provide: ConsoleSettings, useValue: settings },
        ...serviceProviders('console', settings, logger, workspace),
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
        ...workspaceProviders(workspace),
        { provide: AuditTrail, useValue: new AuditTrail(settings.auditRecords) },
        {
          provide: DestinationTester,
          useFactory: (views: ConsoleViews) =>
            new IngestDestinationTester(settings.ingestUrl, workspace, views),
          inject: [ConsoleViews],
        },
        { provide: ApiTokens, useValue: loadApiTokens(settings) },
        {
          provide: ConsoleSessions,
          useFactory: (tokens: ApiTokens) =>
            new ConsoleSessions(tokens, settings.sessionTtlMs, settings.secureCookie),
          inject: [ApiTokens],
        },
        ConsoleAuthGuard,
        { provide: DeliveryReplay, useValue: new DeliveryReplay(settings.deliveryUrl, settings.adminToken) },
        ConsoleRequestSender,
        {
          provide: AdminRequests,
          useFactory: (sender: ConsoleRequestSender, topics: TopicNames, log: Logger) =>
            new AdminRequests(sender, topics, workspace, log),
          inject: [ConsoleRequestSender, TOPICS, LOGGER],
        },
      ],
    };
  }
}
