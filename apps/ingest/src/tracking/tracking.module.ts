import { Module } from '@nestjs/common';
import { TrackingController } from './tracking.controller';
import { TrackingService } from './tracking.service';

/** Segment's HTTP Tracking API: /v1/{identify,track,page,screen,group,alias,batch,import}. */
@Module({ controllers: [TrackingController], providers: [TrackingService] })
export class TrackingModule {}
