import { DynamicModule, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { WorkspaceConfigStore } from '@switchyard/config';
import { AdminToken, AdminTokenGuard } from '@switchyard/service';
import { ObservabilityModule } from '@switchyard/telemetry';
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
        // The store holds a valid configuration from start-up on (a bad edit keeps the previous one), so it is no readiness check.
        { provide: WorkspaceConfigStore, useValue: workspace },
        DeliveryRuntime,
        { provide: DeadLetterStore, useFactory: (runtime: DeliveryRuntime) => runtime.deadLetters, inject: [DeliveryRuntime] },
        { provide: AdminToken, useValue: new AdminToken(settings.adminToken) },
        AdminTokenGuard,
      ],
    };
  }
}
