import { Body, Controller, Headers, HttpCode, HttpException, Inject, Param, Post } from '@nestjs/common';
import type { Logger } from 'pino';
import { CallType, isCallType } from '@switchyard/contracts';
import { WorkspaceConfigStore } from '@switchyard/config';
import { Counter, metric } from '@switchyard/telemetry';
import { IngestSettings } from '../ingest-settings';
import { LOGGER } from '../ingest.tokens';
import { parseTrackingRequest } from './tracking-request';
import { TrackingService } from './tracking.service';
import { extractWriteKey } from './write-key';

const rejected = metric('switchyard_ingest_requests_rejected_total', () =>
  new Counter({ name: 'switchyard_ingest_requests_rejected_total', help: 'Tracking requests refused, by reason', labelNames: ['reason'] }),
);

/** Endpoints of Segment's Tracking API that write calls: one per call type, plus batch and import. */
const BATCH_ENDPOINTS = new Set(['batch', 'import']);

function refuse(status: number, error: string, message: string, extra: object = {}): never {
  rejected.inc({ reason: error });
  throw new HttpException({ success: false, error, message, ...extra }, status);
}

@Controller('v1')
export class TrackingController {
  constructor(
    private readonly tracking: TrackingService,
    private readonly workspace: WorkspaceConfigStore,
    private readonly settings: IngestSettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Post(':endpoint')
  @HttpCode(200)
  async track(@Param('endpoint') endpoint: string, @Headers('authorization') authorization: string | undefined, @Body() body: unknown) {
    const kind: CallType | 'batch' | undefined = BATCH_ENDPOINTS.has(endpoint) ? 'batch' : isCallType(endpoint) ? endpoint : undefined;
    if (!kind) refuse(404, 'not_found', `unknown endpoint /v1/${endpoint}; use identify, track, page, screen, group, alias, batch or import`);

    const writeKey = extractWriteKey(authorization, body);
    if (!writeKey) refuse(401, 'unauthorized', 'missing write key: send it as the HTTP Basic username, or as "writeKey" in the body');
    const source = this.workspace.sourceByWriteKey(writeKey);
    if (!source) refuse(401, 'unauthorized', 'unknown write key');

    const parsed = parseTrackingRequest(kind, body, this.settings);
    if (!parsed.ok) refuse(parsed.status, parsed.error, parsed.message, parsed.errors ? { errors: parsed.errors } : {});

    try {
      await this.tracking.accept(source.id, parsed.messages, parsed.batch);
    } catch (error) {
      this.logger.error({ err: error, sourceId: source.id }, 'Kafka did not acknowledge the calls');
      refuse(503, 'unavailable', 'the calls could not be stored; nothing was accepted, retry later');
    }
    return { success: true };
  }
}
