import { Controller, Get, Header, HttpException, HttpStatus, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { metricsRegistry } from './metrics';
import { Readiness } from './readiness';

/*
 * Not cached. Not described for OpenAPI either: the management API's document leaves these paths
 * out, and describing them would load @nestjs/swagger into every service.
 */
const HEALTH_CHECK = { noCache: true, swaggerDocumentation: false };

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
  @HealthCheck(HEALTH_CHECK)
  live() {
    return this.health.check([]);
  }

  @Get('health/ready')
  @HealthCheck(HEALTH_CHECK)
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
