import { Module } from '@nestjs/common';
import { AnalyticsJsBundle } from './analytics-js-bundle';
import { AnalyticsJsController } from './analytics-js.controller';

/** Web sources: the self-hosted analytics.js bundle, its chunks and the settings it loads. */
@Module({
  controllers: [AnalyticsJsController],
  providers: [{ provide: AnalyticsJsBundle, useFactory: () => new AnalyticsJsBundle() }],
})
export class BrowserModule {}
