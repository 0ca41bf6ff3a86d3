import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';

/** Fastify options: a caller's `X-Request-Id` is kept (up to 128 chars), else a UUID is made. */
export const requestIdOptions: Pick<FastifyServerOptions, 'requestIdHeader' | 'genReqId'> = {
  requestIdHeader: 'x-request-id',
  genReqId: () => randomUUID(),
};

/**
 * Every answer carries `X-Request-Id`, and every request is logged with it: at debug level
 * normally (ingest's request rate makes info-level access logs a cost), at warn for 5xx other
 * than a health probe's 503.
 * Bodies are never logged.
 */
export function registerRequestLog(fastify: FastifyInstance, logger: Logger): void {
  // Callback hooks, not async ones: they run on every request, and a promise each is measurable
  // at ingest's request rate.
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.id.length > 128) request.id = randomUUID();
    void reply.header('x-request-id', request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    // A health probe's 503 is its answer ("not ready yet"), not a failed request: start-up and
    // every outage would otherwise print one warning per probe.
    const failed =
      reply.statusCode >= 500 && !(reply.statusCode === 503 && request.url.startsWith('/health/'));
    if (failed || logger.isLevelEnabled('debug')) {
      const fields = {
        reqId: request.id,
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      };
      if (failed) logger.warn(fields, 'request failed');
      else logger.debug(fields, 'request');
    }
    done();
  });
}
