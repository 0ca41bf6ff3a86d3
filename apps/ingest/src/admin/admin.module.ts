import { Module } from '@nestjs/common';
import { AdminToken, AdminTokenGuard } from '@switchyard/service';
import { IngestSettings } from '../ingest-settings';
import { AdminController } from './admin.controller';
import { AdminRequestsService } from './admin-requests.service';

/** Audience syncs and deletion requests: admin-token endpoints that write to Kafka for the router. */
@Module({
  controllers: [AdminController],
  providers: [
    AdminRequestsService,
    {
      provide: AdminToken,
      useFactory: (settings: IngestSettings) => new AdminToken(settings.adminToken),
      inject: [IngestSettings],
    },
    AdminTokenGuard,
  ],
})
export class AdminModule {}
