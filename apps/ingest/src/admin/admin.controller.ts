import { Body, Controller, HttpCode, HttpException, Inject, Post, UseGuards } from '@nestjs/common';
import type { Logger } from 'pino';
import {
  AudienceSyncBody,
  DeletionRequestBody,
  FieldError,
  validateAudienceSyncBody,
  validateDeletionRequestBody,
} from '@switchyard/contracts';
import { Workspace } from '@switchyard/config';
import { LOGGER } from '../ingest.tokens';
import { AdminTokenGuard } from '@switchyard/service';
import { mayHoldPrototypeKeys } from '../json-body/json-body';
import { PROTOTYPE_KEY_REASON, prototypeKeyPaths } from '../json-body/prototype-keys';
import { AdminRequestsService } from './admin-requests.service';

function badRequest(message: string, errors: FieldError[] = []): never {
  throw new HttpException({ success: false, error: 'bad_request', message, errors }, 400);
}

/**
 * The validators copy a body onto a class instance, where a `__proto__` key would become the
 * instance's prototype: the rules would check inherited values that the stored body lacks.
 */
function prototypeKeyProblems(body: unknown): FieldError[] {
  return mayHoldPrototypeKeys(body)
    ? prototypeKeyPaths(body).map((field) => ({ field, reason: PROTOTYPE_KEY_REASON }))
    : [];
}

/** Admin endpoints: audience and computed-trait syncs from the personalization product, and deletion requests. */
@Controller('admin/v1')
@UseGuards(AdminTokenGuard)
export class AdminController {
  constructor(
    private readonly requests: AdminRequestsService,
    private readonly workspace: Workspace,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Post('audience-syncs')
  @HttpCode(200)
  async syncAudience(@Body() body: unknown) {
    const problems = [...prototypeKeyProblems(body), ...validateAudienceSyncBody(body)];
    if (problems.length > 0) badRequest('invalid audience sync', problems);
    const sync = body as AudienceSyncBody;
    if (!this.workspace.source(sync.computation.sourceId))
      badRequest(`unknown source "${sync.computation.sourceId}"`);
    await this.stored(() => this.requests.acceptAudienceSync(sync));
    return { success: true };
  }

  @Post('deletions')
  @HttpCode(200)
  async requestDeletion(@Body() body: unknown) {
    const problems = [...prototypeKeyProblems(body), ...validateDeletionRequestBody(body)];
    if (problems.length > 0) badRequest('invalid deletion request', problems);
    const request = body as DeletionRequestBody;
    const unknown = (request.sourceIds ?? []).filter((id) => !this.workspace.source(id));
    if (unknown.length > 0) badRequest(`unknown sources: ${unknown.join(', ')}`);
    const { requestId } = await this.stored(() => this.requests.requestDeletion(request));
    return { success: true, requestId };
  }

  /** A 200 means the broker has it; a Kafka failure is a 503 the caller can retry. */
  private async stored<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      this.logger.error({ err: error }, 'Kafka did not acknowledge the admin request');
      throw new HttpException(
        { success: false, error: 'unavailable', message: 'the request could not be stored; retry later' },
        503,
      );
    }
  }
}
