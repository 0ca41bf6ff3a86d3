import { Module } from '@nestjs/common';

/** Audience syncs and deletion requests (filled by the router issue). */
@Module({})
export class PersonalizationModule {}
