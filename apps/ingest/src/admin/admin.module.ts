import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { Workspace } from '@switchyard/config';
import { TopicNames } from '@switchyard/contracts';
import { BatchingProducer } from '@switchyard/kafka';
import { AdminRequests, AdminToken, AdminTokenGuard } from '@switchyard/service';
import { IngestSettings } from '../ingest-settings';
import { LOGGER, TOPICS } from '../ingest.tokens';
import { AdminController } from './admin.controller';

/**
 * Audience syncs and deletion requests at their older admin-token paths, which the management
 * API (console, `/api/v1`) now also serves; both write through AdminRequests.
 */
@Module({
  controllers: [AdminController],
  providers: [
    {
      provide: AdminRequests,
      useFactory: (producer: BatchingProducer, topics: TopicNames, workspace: Workspace, logger: Logger) =>
        new AdminRequests(producer, topics, workspace, logger),
      inject: [BatchingProducer, TOPICS, Workspace, LOGGER],
    },
    {
      provide: AdminToken,
      useFactory: (settings: IngestSettings) => new AdminToken(settings.adminToken),
      inject: [IngestSettings],
    },
    AdminTokenGuard,
  ],
})
export class AdminModule {}
