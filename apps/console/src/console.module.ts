import { DynamicModule, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { Workspace } from '@switchyard/config';
import { ApiTokens, serviceProviders } from '@switchyard/service';
import { ObservabilityModule } from '@switchyard/telemetry';
import { ConsoleApiController } from './api/console-api.controller';
import { ConsoleAuthGuard } from './auth/console-auth.guard';
import { ConsoleSessions } from './auth/console-sessions';
import { ConsoleSettings } from './console-settings';
import { ConsoleViews } from './console-views';
import { INDEXES } from './console.tokens';
import { AttemptIndex } from './index/attempt-index';
import { CallSample } from './index/call-sample';
import { DeadLetterIndex } from './index/dead-letter-index';
import { ConsoleIndexes } from './kafka/console-feed';
import { ConsoleKafka } from './kafka/console-kafka';
import { DeliveryReplay } from './replay/delivery-replay';
import { ConsolePagesController } from './web/console-pages.controller';

@Module({})
export class ConsoleModule {
  static forRoot(settings: ConsoleSettings, logger: Logger, workspace: Workspace): DynamicModule {
    return {
      module: ConsoleModule,
      imports: [ObservabilityModule],
      controllers: [ConsoleApiController, ConsolePagesController],
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
        { provide: ApiTokens, useValue: ApiTokens.from(settings.adminToken) },
        {
          provide: ConsoleSessions,
          useFactory: (tokens: ApiTokens) =>
            new ConsoleSessions(tokens, settings.sessionTtlMs, settings.secureCookie),
          inject: [ApiTokens],
        },
        ConsoleAuthGuard,
        { provide: DeliveryReplay, useValue: new DeliveryReplay(settings.deliveryUrl, settings.adminToken) },
      ],
    };
  }
}
