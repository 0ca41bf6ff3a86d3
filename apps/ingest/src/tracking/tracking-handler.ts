import { HttpException, Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { Workspace } from '@switchyard/config';
import { ProduceTimeoutError } from '@switchyard/kafka';
import { isOriginAllowed } from '../browser/origin-policy';
import { IngestSettings } from '../ingest-settings';
import { LOGGER } from '../ingest.tokens';
import { clientAddress } from './client-address';
import { trackingEndpoint } from './tracking-endpoints';
import { parseTrackingRequest } from './tracking-request';
import { TrackingService } from './tracking.service';
import { extractWriteKey } from './write-key';

// Counted where every error answer is (refusals.ts), with `error` as the reason.
function refuse(status: number, error: string, message: string, extra: object = {}): never {
  throw new HttpException({ success: false, error, message, ...extra }, status);
}

/**
 * Answers a Tracking API call (`POST /v1/<endpoint>`, registered by tracking-routes.ts): checks
 * the write key, the page's origin and the messages, and resolves once Kafka acknowledged them. A
 * refusal is thrown as an HttpException, which the services' error filter answers.
 */
@Injectable()
export class TrackingHandler {
  constructor(
    private readonly tracking: TrackingService,
    private readonly workspace: Workspace,
    private readonly settings: IngestSettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async track(
    endpoint: string,
    authorization: string | undefined,
    origin: string | undefined,
    ip: string,
    body: unknown,
  ): Promise<{ success: true }> {
    const kind = trackingEndpoint(endpoint);
    if (!kind)
      refuse(
        404,
        'not_found',
        `unknown endpoint /v1/${endpoint}; use identify, track, page, screen, group, alias, batch or import (or i, t, p, s, g, a, b)`,
      );

    const writeKey = extractWriteKey(authorization, body);
    if (!writeKey)
      refuse(
        401,
        'unauthorized',
        'missing write key: send it as the HTTP Basic username, or as "writeKey" in the body',
      );
    const source = this.workspace.sourceByWriteKey(writeKey);
    if (!source) refuse(401, 'unauthorized', 'unknown write key');
    if (origin !== undefined && !isOriginAllowed(source.allowedOrigins, origin)) {
      refuse(
        403,
        'origin_not_allowed',
        `pages on ${origin} may not send this source's calls: the origin is not in its allowedOrigins`,
      );
    }

    const parsed = parseTrackingRequest(kind, body, this.settings);
    if (!parsed.ok)
      refuse(parsed.status, parsed.error, parsed.message, parsed.errors ? { errors: parsed.errors } : {});

    try {
      await this.tracking.accept(source.id, parsed.messages, {
        ...parsed.batch,
        clientIp: clientAddress(ip),
      });
    } catch (error) {
      this.logger.error({ err: error, sourceId: source.id }, 'Kafka did not acknowledge the calls');
      refuse(503, 'unavailable', unstoredMessage(error));
    }
    return { success: true };
  }
}

/** What a 503 can promise: withdrawn records are never written; records already sent to Kafka may still be. */
function unstoredMessage(error: unknown): string {
  if (error instanceof ProduceTimeoutError && error.withdrawn)
    return `Kafka did not acknowledge within ${error.timeoutMs} ms; nothing was stored, retry later`;
  return 'the calls may not have been stored; retry later with the same messageIds, so a receiver can drop a copy that was stored after all';
}
