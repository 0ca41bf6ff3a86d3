import { DynamicModule, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { WorkspaceConfigStore } from '@switchyard/config';
import { AdminToken, AdminTokenGuard } from '@switchyard/service';
import { ObservabilityModule, Readiness } from '@switchyard/telemetry';
import { ConsoleApiController } from './api/console-api.controller';
import { ConsoleAuthGuard } from './auth/console-auth.guard';
import { ConsoleSessions } from './auth/console-sessions';
import { ConsoleRuntime } from './console-runtime';
import { ConsoleSettings } from './console-settings';
import { ConsoleViews } from './console-views';
import { LOGGER } from './console.tokens';
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
        {
          provide: WorkspaceConfigStore,
          useFactory: (readiness: Readiness) => {
            readiness.register('workspaceConfig', () => workspace.config !== undefined);
            return workspace;
          },
          inject: [Readiness],
        },
        ConsoleRuntime,
        ConsoleViews,
        { provide: AdminToken, useValue: new AdminToken(settings.adminToken) },
        AdminTokenGuard,
        { provide: ConsoleSessions, useValue: new ConsoleSessions(settings.adminToken, settings.sessionTtlMs, settings.secureCookie) },
        ConsoleAuthGuard,
        { provide: DeliveryReplay, useValue: new DeliveryReplay(settings.deliveryUrl, settings.adminToken) },
      ],
    };
  }
}
