import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Histogram, metric } from '@switchyard/telemetry';

/** Turns a request's route pattern (and its parameters) into the `route` label; must keep the set of values small. */
export type RouteLabel = (route: string, params: unknown) => string;

/** Requests no route matched (404s for unknown paths) share one label value, whatever their path. */
export const UNMATCHED_ROUTE = 'unmatched';

const byPattern: RouteLabel = (route) => route;

/**
 * Observes every answered request as `switchyard_http_request_duration_seconds{route,status}`:
 * from Fastify receiving it to the answer sent. `route` is the route pattern, never the raw URL,
 * so unknown paths cannot add series.
 */
export function registerRequestMetrics(fastify: FastifyInstance, routeLabel: RouteLabel = byPattern): void {
  const seconds = metric(
    'switchyard_http_request_duration_seconds',
    () =>
      new Histogram({
        name: 'switchyard_http_request_duration_seconds',
        help: 'HTTP requests answered, by route (pattern) and status: from receipt to the answer sent',
        labelNames: ['route', 'status'],
        buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      }),
  );
  // A callback hook: it runs on every request, and a promise each is measurable at ingest's rate.
  fastify.addHook('onResponse', (request, reply, done) => {
    seconds.observe(
      { route: labelOf(request, routeLabel), status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}

function labelOf(request: FastifyRequest, routeLabel: RouteLabel): string {
  const route = request.routeOptions.url;
  return route === undefined ? UNMATCHED_ROUTE : routeLabel(route, request.params);
}
