import type { FastifyInstance } from 'fastify';
import { TRACKING_ROUTE } from './tracking-endpoints';
import { TrackingHandler } from './tracking-handler';

/**
 * The Tracking API's routes, on Fastify itself rather than through a Nest controller: every SDK
 * call is one request to them (analytics.js and the mobile SDKs send one per event), and Nest's
 * per-request layers (parameter resolution, pipes, the response controller) cost each call a
 * share of its CPU that the other routes can afford. Errors still reach the services' error
 * filter, through the error handler Nest gives Fastify.
 */
export function registerTrackingRoutes(fastify: FastifyInstance, handler: TrackingHandler): void {
  // analytics.js posts its own telemetry (`{"series":[…]}` counters) to `<apiHost>/m`. Answered
  // so the page logs no error; it is Segment's monitoring of its library, so it is not stored.
  fastify.post('/v1/m', async () => ({ success: true }));
  fastify.post<{ Params: { endpoint: string } }>(TRACKING_ROUTE, (request) =>
    handler.track(
      request.params.endpoint,
      request.headers.authorization,
      request.headers.origin,
      request.ip,
      request.body,
    ),
  );
}
