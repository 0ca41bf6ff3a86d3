import { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import { reportBuildInfo, traceHttpRoutes } from '@switchyard/telemetry';
import { useSmallBufferPool } from './buffer-pool';
import { ErrorAnswerListener, HttpErrorFilter } from './http-exception.filter';
import { PinoNestLogger } from './nest-logger';
import { closeOnSignals } from './process-shutdown';
import { registerRequestLog, requestIdOptions } from './request-log';
import { registerRequestMetrics, RouteLabel } from './request-metrics';

export interface HttpServiceOptions {
  module: Type<unknown> | ReturnType<() => import('@nestjs/common').DynamicModule>;
  logger: Logger;
  port: number;
  host: string;
  fastify?: FastifyServerOptions;
  /** Clearer messages for the framework's own errors, by status (see HttpErrorFilter). */
  errorMessages?: Record<number, string>;
  /** Told of every error answer (see HttpErrorFilter): refusals the framework makes before a controller runs included. */
  onErrorAnswer?: ErrorAnswerListener;
  /** Runs on the Fastify instance before routes are registered (content parsers, hooks). */
  configure?: (app: NestFastifyApplication) => void | Promise<void>;
  /** The commit of this build (settings' SWITCHYARD_COMMIT), for switchyard_build_info. */
  buildCommit: string;
  /** The `route` label of request metrics; the route pattern by default. */
  routeLabel?: RouteLabel;
}

/** Starts a Nest application on Fastify with the shared error filter, pino logging and a clean SIGTERM exit (closeOnSignals). */
export async function startHttpService(options: HttpServiceOptions): Promise<NestFastifyApplication> {
  useSmallBufferPool();
  const adapter = new FastifyAdapter({ logger: false, ...requestIdOptions, ...options.fastify });
  const app = await NestFactory.create<NestFastifyApplication>(options.module as Type<unknown>, adapter, {
    logger: new PinoNestLogger(options.logger),
    bufferLogs: false,
    // Fastify's built-in JSON parser is all the services need; Nest's would add url-encoded forms.
    bodyParser: false,
  });
  app.useGlobalFilters(new HttpErrorFilter(options.logger, options.errorMessages, options.onErrorAnswer));
  registerRequestLog(app.getHttpAdapter().getInstance(), options.logger);
  traceHttpRoutes(app.getHttpAdapter().getInstance());
  registerRequestMetrics(app.getHttpAdapter().getInstance(), options.routeLabel);
  reportBuildInfo(options.buildCommit);
  await options.configure?.(app);
  await app.listen(options.port, options.host);
  closeOnSignals(app, options.logger);
  return app;
}

/** The port the app actually listens on (tests bind port 0). */
export function listeningPort(app: INestApplication): number {
  const address = app.getHttpServer().address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** Prints a start-up failure (bad configuration above all) in one readable line and exits 1. */
export function exitOnStartupError(logger: Logger) {
  return (error: unknown) => {
    logger.fatal({ reason: (error as Error).message }, 'start-up failed');
    process.stderr.write(`start-up failed: ${(error as Error).message}\n`);
    process.exit(1);
  };
}
