import type { FastifyInstance } from 'fastify';

const TEXT_PLAIN = /^\s*text\/plain\s*(?=;|$)/i;

/**
 * analytics.js posts JSON as `text/plain` (a "simple" type), the mobile SDKs too, and beacons may
 * carry no type at all. On the Tracking API such bodies are declared JSON before parsing starts,
 * so the one JSON parser reads them: same limits, same errors, nothing to keep in step. Other
 * paths keep refusing them (415).
 */
export function registerTextPlainAsJson(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (request.method === 'POST' && request.url.startsWith('/v1/')) {
      const type = request.headers['content-type'];
      if (type === undefined || type === '') request.headers['content-type'] = 'application/json';
      else if (TEXT_PLAIN.test(type))
        request.headers['content-type'] = type.replace(TEXT_PLAIN, 'application/json');
    }
    done();
  });
}
