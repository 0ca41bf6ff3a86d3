import { DynamicModule, Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { Workspace } from '@switchyard/config';
import { BatchingProducer } from '@switchyard/kafka';
import { SERVICE_EXPORTS, serviceProviders } from '@switchyard/service';
import { ObservabilityModule } from '@switchyard/telemetry';
import { BrowserModule } from './browser/browser.module';
import { IngestSettings } from './ingest-settings';
import { IngestKafka } from './kafka/ingest-kafka';
import { AdminModule } from './admin/admin.module';
import { TrackingModule } from './tracking/tracking.module';

/** Everything ingest's feature modules share: settings, logger, topics, workspace, producer. */
@Global()
@Module({})
class IngestCoreModule {
  static forRoot(settings: IngestSettings, logger: Logger, workspace: Workspace): DynamicModule {
    return {
      module: IngestCoreModule,
      providers: [
        { provide: IngestSettings, useValue: settings },
        ...serviceProviders('ingest', settings, logger, workspace),
        IngestKafka,
        {
          provide: BatchingProducer,
          useFactory: (kafka: IngestKafka) => kafka.batching,
          inject: [IngestKafka],
        },
      ],
      exports: [IngestSettings, ...SERVICE_EXPORTS, BatchingProducer],
    };
  }
}

@Module({})
export class IngestModule {
  static forRoot(settings: IngestSettings, logger: Logger, workspace: Workspace): DynamicModule {
    return {
      module: IngestModule,
      imports: [
        ObservabilityModule,
        IngestCoreModule.forRoot(settings, logger, workspace),
        TrackingModule,
        BrowserModule,
        AdminModule,
      ],
    };
  }
}
