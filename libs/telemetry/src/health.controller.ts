import { Controller, Get, Header, HttpException, HttpStatus, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { metricsRegistry } from './metrics';
import { Readiness } from './readiness';

/** `/health/live`, `/health/ready` and `/metrics`, the same on every service. */
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Inject(Readiness) private readonly readiness: Readiness,
  ) {}

  /** Live while the event loop answers; Kubernetes restarts the pod otherwise. */
  @Get('health/live')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('health/ready')
  @HealthCheck()
  ready() {
    return this.health.check([
      () => {
        const { ready, checks } = this.readiness.report();
        const indicator = this.indicators.check('switchyard');
        return ready ? indicator.up(checks) : indicator.down(checks);
      },
    ]);
  }

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  async metrics(): Promise<string> {
    try {
      return await metricsRegistry().metrics();
    } catch (error) {
      throw new HttpException(
        `metrics unavailable: ${(error as Error).message}`,
        HttpStatus.INTERNAL_SERVER_ERROR,
      );
    }
  }
}
