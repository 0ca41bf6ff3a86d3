import { DynamicModule, Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { topicNames } from '@switchyard/contracts';
import { WorkspaceConfigStore } from '@switchyard/config';
import { BatchingProducer } from '@switchyard/kafka';
import { ObservabilityModule } from '@switchyard/telemetry';
import { BrowserModule } from './browser/browser.module';
import { IngestSettings } from './ingest-settings';
import { LOGGER, TOPICS } from './ingest.tokens';
import { IngestKafka } from './kafka/ingest-kafka';
import { AdminModule } from './admin/admin.module';
import { TrackingModule } from './tracking/tracking.module';

/** Everything ingest's feature modules share: settings, logger, topics, workspace, producer. */
@Global()
@Module({})
class IngestCoreModule {
  static forRoot(settings: IngestSettings, logger: Logger, workspace: WorkspaceConfigStore): DynamicModule {
    return {
      module: IngestCoreModule,
      providers: [
        { provide: IngestSettings, useValue: settings },
        { provide: LOGGER, useValue: logger },
        { provide: TOPICS, useValue: topicNames(settings.topicNamespace) },
        // The store holds a valid configuration from start-up on (a bad edit keeps the previous one), so it is no readiness check.
        { provide: WorkspaceConfigStore, useValue: workspace },
        IngestKafka,
        {
          provide: BatchingProducer,
          useFactory: (kafka: IngestKafka) => kafka.batching,
          inject: [IngestKafka],
        },
      ],
      exports: [IngestSettings, LOGGER, TOPICS, WorkspaceConfigStore, BatchingProducer],
    };
  }
}

@Module({})
export class IngestModule {
  static forRoot(settings: IngestSettings, logger: Logger, workspace: WorkspaceConfigStore): DynamicModule {
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
