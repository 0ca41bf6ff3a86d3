import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { Readiness } from './readiness';
import { TracingShutdown } from './tracing-shutdown';

@Global()
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [Readiness, TracingShutdown],
  exports: [Readiness],
})
export class ObservabilityModule {}
