import type { FastifyInstance } from 'fastify';

/** What pages call: the Tracking API, the settings, the bundle and its chunks (not the admin API). */
const BROWSER_PATHS = /^\/(v1|analytics\.js|analytics-next)\//;
/** What analytics.js sends when the preflight names none: its body type, the write key, its retry count. */
const DEFAULT_ALLOWED_HEADERS = 'Content-Type, Authorization, X-Retry-Count';
/** Browsers cap it lower (Chromium at 2 h); one preflight per page load at most. */
const PREFLIGHT_MAX_AGE_SECONDS = '86400';

/**
 * CORS for pages on other origins. Every origin gets its own value back (with `Vary: Origin`),
 * and a preflight is answered 204 at once: it carries no write key, so which origins a source
 * allows (`allowedOrigins`) is checked on the call itself, which then gets a readable 403.
 * Requests without `Origin` (servers, apps) are untouched.
 */
export function registerCors(fastify: FastifyInstance): void {
  // A callback hook, as request-log's: it runs on every request.
  fastify.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    if (origin === undefined || !BROWSER_PATHS.test(request.url)) return done();
    void reply
      .header('access-control-allow-origin', origin)
      .header('vary', 'Origin')
      .header('access-control-expose-headers', 'X-Request-Id');
    if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined)
      return done();
    void reply
      .code(204)
      .header('access-control-allow-methods', 'GET, POST, OPTIONS')
      .header(
        'access-control-allow-headers',
        request.headers['access-control-request-headers'] || DEFAULT_ALLOWED_HEADERS,
      )
      .header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS)
      .send();
  });
}
