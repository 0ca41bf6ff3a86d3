import { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import { HttpErrorFilter } from './http-exception.filter';
import { PinoNestLogger } from './nest-logger';

export interface HttpServiceOptions {
  module: Type<unknown> | ReturnType<() => import('@nestjs/common').DynamicModule>;
  logger: Logger;
  port: number;
  host: string;
  fastify?: FastifyServerOptions;
  /** Clearer messages for the framework's own errors, by status (see HttpErrorFilter). */
  errorMessages?: Record<number, string>;
  /** Runs on the Fastify instance before routes are registered (content parsers, hooks). */
  configure?: (app: NestFastifyApplication) => void | Promise<void>;
}

/**
 * Starts a Nest application on Fastify with the shared error filter, pino logging and
 * shutdown hooks (SIGTERM and SIGINT close modules in order, so consumers stop and commit).
 */
export async function startHttpService(options: HttpServiceOptions): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ logger: false, ...options.fastify });
  const app = await NestFactory.create<NestFastifyApplication>(options.module as Type<unknown>, adapter, {
    logger: new PinoNestLogger(options.logger),
    bufferLogs: false,
    // Fastify's built-in JSON parser is all the services need; Nest's would add url-encoded forms.
    bodyParser: false,
  });
  app.useGlobalFilters(new HttpErrorFilter(options.logger, options.errorMessages));
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await options.configure?.(app);
  await app.listen(options.port, options.host);
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
