import { Module } from '@nestjs/common';
import { TrackingHandler } from './tracking-handler';
import { TrackingService } from './tracking.service';

/**
 * Segment's HTTP Tracking API: /v1/{identify,track,page,screen,group,alias,batch,import}. Its
 * routes are registered on Fastify by ingest.app.ts (tracking-routes.ts).
 */
@Module({ providers: [TrackingService, TrackingHandler] })
export class TrackingModule {}
