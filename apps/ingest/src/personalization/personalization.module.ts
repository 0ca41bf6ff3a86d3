import { Module } from '@nestjs/common';
import { AdminTokenGuard } from './admin-token.guard';
import { PersonalizationController } from './personalization.controller';
import { PersonalizationService } from './personalization.service';

/** Audience syncs and deletion requests: admin-token endpoints that write to Kafka for the router. */
@Module({
  controllers: [PersonalizationController],
  providers: [PersonalizationService, AdminTokenGuard],
})
export class PersonalizationModule {}
