import { Module } from '@nestjs/common';
import { AdminToken, AdminTokenGuard } from '@switchyard/service';
import { IngestSettings } from '../ingest-settings';
import { PersonalizationController } from './personalization.controller';
import { PersonalizationService } from './personalization.service';

/** Audience syncs and deletion requests: admin-token endpoints that write to Kafka for the router. */
@Module({
  controllers: [PersonalizationController],
  providers: [
    PersonalizationService,
    {
      provide: AdminToken,
      useFactory: (settings: IngestSettings) => new AdminToken(settings.adminToken),
      inject: [IngestSettings],
    },
    AdminTokenGuard,
  ],
})
export class PersonalizationModule {}
