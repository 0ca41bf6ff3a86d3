import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AudienceSyncBody, DeletionRequestBody, FieldError } from '@switchyard/contracts';
import { AdminRequests } from '@switchyard/service';
import { ConsoleAuthGuard } from '../auth/console-auth.guard';
import { invalid } from '../workspace/workspace-errors';

const ERRORS = [
  { status: 400, description: 'the body breaks a rule; `problems` lists each, naming its field' },
  { status: 401, description: 'token missing or wrong' },
  { status: 403, description: 'a viewer token tried to write' },
  { status: 413, description: 'body over 1 MB' },
  { status: 503, description: 'Kafka did not acknowledge the request; retry it' },
];
const Errors = (): MethodDecorator => (target, key, descriptor) => {
  for (const error of ERRORS) ApiResponse(error)(target, key, descriptor);
};

/** Refuses a body with every problem it has, each naming its field, as the rest of the API does. */
function refuseIfAny(problems: FieldError[]): void {
  if (problems.length > 0)
    throw invalid(problems.map((p) => (p.field ? `${p.field}: ${p.reason}` : p.reason)));
}

/**
 * Audience and computed-trait syncs from the personalization product, and deletion requests,
 * for admin tokens. A 200 means the broker holds the request; the router acts on it from there.
 */
@Controller('api/v1')
@UseGuards(ConsoleAuthGuard)
@ApiBearerAuth()
export class AdminRequestsController {
  constructor(private readonly requests: AdminRequests) {}

  @Post('audience-syncs')
  @HttpCode(200)
  @ApiTags('audiences')
  @ApiOperation({
    operationId: 'syncAudience',
    summary: 'An audience or computed-trait sync: one page of a snapshot, or a delta',
  })
  @ApiBody({ type: AudienceSyncBody })
  @ApiOkResponse({ schema: { type: 'object', properties: { success: { type: 'boolean', enum: [true] } } } })
  @Errors()
  async syncAudience(@Body() body: unknown) {
    refuseIfAny(this.requests.audienceSyncProblems(body));
    await this.requests.acceptAudienceSync(body as AudienceSyncBody);
    return { success: true };
  }

  @Post('deletions')
  @HttpCode(200)
  @ApiTags('deletions')
  @ApiOperation({
    operationId: 'requestDeletion',
    summary: 'A deletion request for users, in some or all sources; answered with its request id',
  })
  @ApiBody({ type: DeletionRequestBody })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: {
        success: { type: 'boolean', enum: [true] },
        requestId: { type: 'string', format: 'uuid' },
      },
    },
  })
  @Errors()
  async requestDeletion(@Body() body: unknown) {
    refuseIfAny(this.requests.deletionProblems(body));
    const { requestId } = await this.requests.requestDeletion(body as DeletionRequestBody);
    return { success: true, requestId };
  }
}
