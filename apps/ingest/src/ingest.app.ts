import type { Server } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyHttpOptions } from 'fastify';
import type { Logger } from 'pino';
import { startHttpService, startWithWorkspace } from '@switchyard/service';
import { IngestSettings } from './ingest-settings';
import { IngestModule } from './ingest.module';
import { registerCors } from './browser/cors';
import { registerTextPlainAsJson } from './browser/text-plain-bodies';
import { countRefusal } from './refusals';
import { registerBodyHandling } from './tracking/body-handling';
import { registerJsonBody } from './json-body/json-body';
import { trackingRouteLabel } from './tracking/tracking-endpoints';
import { TrackingHandler } from './tracking/tracking-handler';
import { registerTrackingRoutes } from './tracking/tracking-routes';
import { fastifyTrustProxy } from './tracking/proxy-trust';

const HTTP_TIMEOUT_CHECK_MS = 1000;

/** Starts the ingest service; used by main.ts and by tests (which pass port 0). */
export function startIngest(settings: IngestSettings, logger: Logger): Promise<NestFastifyApplication> {
  const fastify: FastifyHttpOptions<Server> = {
    bodyLimit: settings.maxRequestBytes,
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: fastifyTrustProxy(settings.trustProxy),
    requestTimeout: settings.requestTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    // Node checks these timeouts every connectionsCheckingInterval (30 s by default), which
    // would let a slow-header connection live up to 30 s past its limit.
    http: { headersTimeout: settings.headersTimeoutMs, connectionsCheckingInterval: HTTP_TIMEOUT_CHECK_MS },
  };
  return startWithWorkspace(settings, logger, (workspace) =>
    startHttpService({
      module: IngestModule.forRoot(settings, logger, workspace),
      logger,
      port: settings.port,
      host: settings.host,
      fastify,
      errorMessages: {
        // Fastify's own wording does not say what the limit is.
        413: `request body exceeds ${settings.maxRequestBytes} bytes (counted after decompression)`,
        415: 'unsupported body: send Content-Type application/json (or text/plain holding JSON), with Content-Encoding identity, gzip or deflate',
      },
      onErrorAnswer: countRefusal,
      buildCommit: settings.buildCommit,
      routeLabel: trackingRouteLabel,
      configure: (nest) => {
        const instance = nest.getHttpAdapter().getInstance();
        registerCors(instance);
        registerTextPlainAsJson(instance);
        registerJsonBody(instance, settings.maxJsonDepth);
        registerBodyHandling(instance);
        registerTrackingRoutes(instance, nest.get(TrackingHandler));
      },
    }),
  );
}
