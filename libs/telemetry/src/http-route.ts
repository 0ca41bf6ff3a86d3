import { trace } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { isTracingOn } from './tracing-state';

/**
 * Gives each HTTP server span its route template, as the conventions ask: `http.route` and the
 * name `POST /v1/track`. The HTTP instrumentation sees only Node's request, not Fastify's routes.
 * Requests that match no route keep the bare method as their name, so span names stay few.
 */
export function traceHttpRoutes(fastify: FastifyInstance): void {
  if (!isTracingOn()) return;
  fastify.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    // The server span is the active one here: the instrumentation runs Fastify inside its context.
    const span = trace.getActiveSpan();
    if (route && span) span.setAttribute('http.route', route).updateName(`${request.method} ${route}`);
    done();
  });
}
