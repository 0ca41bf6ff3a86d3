import { DynamicModule, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { WorkspaceConfigStore } from '@switchyard/config';
import { AdminToken, AdminTokenGuard } from '@switchyard/service';
import { ObservabilityModule, Readiness } from '@switchyard/telemetry';
import { DeadLetterController } from './dead-letters/dead-letter.controller';
import { DeadLetterStore } from './dead-letters/dead-letter-store';
import { DeliveryRuntime } from './delivery-runtime';
import { DeliverySettings } from './delivery-settings';
import { LOGGER } from './delivery.tokens';

@Module({})
export class DeliveryModule {
  static forRoot(settings: DeliverySettings, logger: Logger, workspace: WorkspaceConfigStore): DynamicModule {
    return {
      module: DeliveryModule,
      imports: [ObservabilityModule],
      controllers: [DeadLetterController],
      providers: [
        { provide: DeliverySettings, useValue: settings },
        { provide: LOGGER, useValue: logger },
        {
          provide: WorkspaceConfigStore,
          useFactory: (readiness: Readiness) => {
            readiness.register('workspaceConfig', () => workspace.config.destinations.length >= 0);
            return workspace;
          },
          inject: [Readiness],
        },
        DeliveryRuntime,
        { provide: DeadLetterStore, useFactory: (runtime: DeliveryRuntime) => runtime.deadLetters, inject: [DeliveryRuntime] },
        { provide: AdminToken, useValue: new AdminToken(settings.adminToken) },
        AdminTokenGuard,
      ],
    };
  }
}
