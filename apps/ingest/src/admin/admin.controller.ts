import { Body, Controller, HttpCode, HttpException, Post, UseGuards } from '@nestjs/common';
import { AudienceSyncBody, DeletionRequestBody, FieldError } from '@switchyard/contracts';
import { AdminRequests, AdminTokenGuard } from '@switchyard/service';
import { mayHoldPrototypeKeys } from '../json-body/json-body';
import { PROTOTYPE_KEY_REASON, prototypeKeyPaths } from '../json-body/prototype-keys';

function badRequest(message: string, errors: FieldError[]): never {
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

/**
 * Audience and computed-trait syncs from the personalization product, and deletion requests, at
 * their older paths: an alias, for one release, of the management API's (console, `/api/v1`).
 */
@Controller('admin/v1')
@UseGuards(AdminTokenGuard)
export class AdminController {
  constructor(private readonly requests: AdminRequests) {}

  @Post('audience-syncs')
  @HttpCode(200)
  async syncAudience(@Body() body: unknown) {
    const problems = [...prototypeKeyProblems(body), ...this.requests.audienceSyncProblems(body)];
    if (problems.length > 0) badRequest('invalid audience sync', problems);
    await this.requests.acceptAudienceSync(body as AudienceSyncBody);
    return { success: true };
  }

  @Post('deletions')
  @HttpCode(200)
  async requestDeletion(@Body() body: unknown) {
    const problems = [...prototypeKeyProblems(body), ...this.requests.deletionProblems(body)];
    if (problems.length > 0) badRequest('invalid deletion request', problems);
    const { requestId } = await this.requests.requestDeletion(body as DeletionRequestBody);
    return { success: true, requestId };
  }
}
