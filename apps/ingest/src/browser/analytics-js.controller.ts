import { Controller, Get, Headers, HttpException, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Workspace } from '@switchyard/config';
import { IngestSettings } from '../ingest-settings';
import { AnalyticsJsBundle, StaticFile } from './analytics-js-bundle';
import { cdnSettings } from './cdn-settings';
import { isOriginAllowed } from './origin-policy';
import { isUsableHost, PublicAddress, publicAddress } from './public-address';

/** The bundle names no version; an upgrade of ingest reaches pages within the hour. */
const BUNDLE_CACHE = 'public, max-age=3600';
/** Chunk names carry their content hash. */
const CHUNK_CACHE = 'public, max-age=31536000, immutable';
/** A workspace edit (a new allowedOrigins) reaches pages within a minute. */
const SETTINGS_CACHE = 'public, max-age=60';

function refuse(status: number, error: string, message: string): never {
  throw new HttpException({ success: false, error, message }, status);
}

/** What the standard snippet and `AnalyticsBrowser.load` fetch from Segment's CDN, served by ingest. */
@Controller()
export class AnalyticsJsController {
  constructor(
    private readonly bundle: AnalyticsJsBundle,
    private readonly workspace: Workspace,
    private readonly settings: IngestSettings,
  ) {}

  @Get('v1/projects/:writeKey/settings')
  projectSettings(
    @Param('writeKey') writeKey: string,
    @Headers('origin') origin: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): void {
    const source = this.workspace.sourceByWriteKey(writeKey);
    if (!source) refuse(404, 'not_found', 'unknown write key');
    if (origin !== undefined && !isOriginAllowed(source.allowedOrigins, origin)) {
      refuse(
        403,
        'origin_not_allowed',
        `pages on ${origin} may not load this source: the origin is not in its allowedOrigins`,
      );
    }
    void reply
      .header('cache-control', SETTINGS_CACHE)
      .type('application/json')
      .send(JSON.stringify(cdnSettings(writeKey, this.address(request))));
  }

  @Get('analytics.js/v1/:writeKey/analytics.min.js')
  analyticsJs(
    @Param('writeKey') writeKey: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): void {
    if (!this.workspace.sourceByWriteKey(writeKey)) refuse(404, 'not_found', 'unknown write key');
    sendStatic(request, reply, this.bundle.render(writeKey, this.address(request)), BUNDLE_CACHE);
  }

  @Get('analytics-next/bundles/:file')
  chunk(@Param('file') file: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const chunk = this.bundle.chunk(file);
    if (!chunk) refuse(404, 'not_found', `no analytics.js ${this.bundle.version} chunk is called ${file}`);
    sendStatic(request, reply, chunk, CHUNK_CACHE);
  }

  private address(request: FastifyRequest): PublicAddress {
    if (!this.settings.publicUrl && !isUsableHost(request.host)) {
      refuse(
        400,
        'bad_request',
        'the Host header is not a host[:port]; set INGEST_PUBLIC_URL if a proxy rewrites it',
      );
    }
    return publicAddress(this.settings.publicUrl, request);
  }
}

function sendStatic(
  request: FastifyRequest,
  reply: FastifyReply,
  file: StaticFile,
  cacheControl: string,
): void {
  const vary = reply.getHeader('vary');
  void reply
    .header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding')
    .header('cache-control', cacheControl)
    .type(request.url.endsWith('.map') ? 'application/json' : 'text/javascript; charset=utf-8');
  if (file.gzipped && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
    void reply.header('content-encoding', 'gzip').send(file.gzipped);
  } else {
    void reply.send(file.body);
  }
}
