import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Destination, Source } from '@switchyard/config';
import type { TokenHolder } from '@switchyard/service';
import { ConsoleAuthGuard, Holder } from '../auth/console-auth.guard';
import { auditFilter, MAX_LIMIT, RawInput } from '../api/query-params';
import { AuditTrail } from './audit-trail';
import { ResourceView, WorkspaceAdmin } from './workspace-admin';

type Plain = Record<string, unknown>;

const IF_MATCH = {
  name: 'If-Match',
  required: false,
  description: 'The ETag last read; a stale one gets 412.',
};
const ERRORS = [
  { status: 400, description: 'the body breaks a rule; `problems` lists each, naming its field' },
  { status: 401, description: 'token missing or wrong' },
  { status: 403, description: 'a viewer token tried to write' },
  { status: 404, description: 'unknown id' },
  { status: 409, description: 'duplicate id, or a change that conflicts with the workspace' },
  { status: 412, description: 'If-Match names a stale revision' },
  { status: 413, description: 'body over 1 MB' },
  { status: 503, description: 'the workspace topic cannot be written' },
];
const Errors = (): MethodDecorator => (target, key, descriptor) => {
  for (const error of ERRORS) ApiResponse(error)(target, key, descriptor);
};

/** Sends one resource with its revision as the ETag. */
function one(reply: FastifyReply, view: ResourceView, status = 200): Plain {
  void reply.status(status).header('etag', `"${view.revision}"`);
  return view.resource;
}

/**
 * Sources and destinations, under the management API's one prefix. Bodies use the workspace
 * file's field names; revisions travel as ETag and If-Match; secrets are write-only.
 */
@Controller('api/v1')
@UseGuards(ConsoleAuthGuard)
@ApiBearerAuth()
@ApiExtraModels(Source, Destination)
export class WorkspaceApiController {
  constructor(
    private readonly admin: WorkspaceAdmin,
    private readonly audit: AuditTrail,
  ) {}

  @Get('audit')
  @ApiTags('audit')
  @ApiOperation({
    operationId: 'listAudit',
    summary: 'Changes to the workspace, newest first: who, when, and the masked before and after',
  })
  @ApiQuery({ name: 'kind', required: false, enum: ['source', 'destination'] })
  @ApiQuery({ name: 'id', required: false })
  @ApiQuery({ name: 'from', required: false, description: 'ISO 8601; changes at or after' })
  @ApiQuery({ name: 'to', required: false, description: 'ISO 8601; changes at or before' })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT } })
  @ApiOkResponse({
    schema: { type: 'object', properties: { changes: { type: 'array', items: { type: 'object' } } } },
  })
  @Errors()
  listAudit(@Query() query: RawInput) {
    return { changes: this.audit.list(auditFilter(query)) };
  }

  @Get('sources')
  @ApiTags('sources')
  @ApiOperation({ operationId: 'listSources', summary: 'Every source; write keys masked for viewers' })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: { sources: { type: 'array', items: { $ref: getSchemaPath(Source) } } },
    },
  })
  @Errors()
  listSources(@Holder() holder: TokenHolder) {
    return { sources: this.admin.listSources(holder).map((v) => v.resource) };
  }

  @Post('sources')
  @ApiTags('sources')
  @ApiOperation({
    operationId: 'createSource',
    summary: 'Create a source; a write key is generated unless one is given',
  })
  @ApiBody({ type: Source })
  @ApiResponse({ status: 201, type: Source })
  @Errors()
  async createSource(
    @Body() body: Plain,
    @Holder() holder: TokenHolder,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return one(reply, await this.admin.createSource(body, holder), 201);
  }

  @Get('sources/:id')
  @ApiTags('sources')
  @ApiOperation({ operationId: 'getSource', summary: 'One source, with its revision as the ETag' })
  @ApiOkResponse({ type: Source })
  @Errors()
  getSource(
    @Param('id') id: string,
    @Holder() holder: TokenHolder,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return one(reply, this.admin.getSource(id, holder));
  }

  @Put('sources/:id')
  @ApiTags('sources')
  @ApiOperation({ operationId: 'replaceSource', summary: 'Replace a source' })
  @ApiHeader(IF_MATCH)
  @ApiBody({ type: Source })
  @ApiOkResponse({ type: Source })
  @Errors()
  async replaceSource(
    @Param('id') id: string,
    @Body() body: Plain,
    @Headers('if-match') ifMatch: string | undefined,
    @Holder() holder: TokenHolder,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return one(reply, await this.admin.changeSource(id, body, ifMatch, false, holder));
  }

  @Patch('sources/:id')
  @ApiTags('sources')
  @ApiOperation({ operationId: 'updateSource', summary: 'Change some fields of a source (JSON merge patch)' })
  @ApiHeader(IF_MATCH)
  @ApiBody({ schema: { type: 'object', description: 'A JSON merge patch (RFC 7396) of the source' } })
  @ApiOkResponse({ type: Source })
  @Errors()
  async updateSource(
    @Param('id') id: string,
    @Body() body: Plain,
    @Headers('if-match') ifMatch: string | undefined,
    @Holder() holder: TokenHolder,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return one(reply, await this.admin.changeSource(id, body, ifMatch, true, holder));
  }

  @Delete('sources/:id')
  @HttpCode(204)
  @ApiTags('sources')
  @ApiOperation({ operationId: 'deleteSource', summary: 'Delete a source no destination uses' })
  @ApiHeader(IF_MATCH)
  @ApiResponse({ status: 204, description: 'deleted' })
  @Errors()
  async deleteSource(
    @Param('id') id: string,
    @Headers('if-match') ifMatch: string | undefined,
    @Holder() holder: TokenHolder,
  ) {
    await this.admin.deleteSource(id, ifMatch, holder);
  }

  @Post('sources/:id/write-keys')
  @ApiTags('sources')
  @ApiOperation({
    operationId: 'rotateWriteKey',
    summary:
      'Start a key rotation: a new write key; the old one keeps working as previousWriteKey until retired',
  })
  @ApiHeader(IF_MATCH)
  @ApiBody({ required: false, schema: { type: 'object', properties: { writeKey: { type: 'string' } } } })
  @ApiOkResponse({ type: Source })
  @Errors()
  async rotateWriteKey(
    @Param('id') id: string,
    @Body() body: Plain | undefined,
    @Headers('if-match') ifMatch: string | undefined,
    @Holder() holder: TokenHolder,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const given = typeof body?.writeKey === 'string' ? body.writeKey : undefined;
    return one(reply, await this.admin.rotateWriteKey(id, ifMatch, given, holder));
  }

  @Delete('sources/:id/previous-write-key')
  @ApiTags('sources')
  @ApiOperation({
    operationId: 'retireWriteKey',
    summary: 'End a key rotation: the previous write key stops working',
  })
  @ApiHeader(IF_MATCH)
  @ApiOkResponse({ type: Source })
  @Errors()
  async retireWriteKey(
    @Param('id') id: string,
    @Headers('if-match') ifMatch: string | undefined,
    @Holder() holder: TokenHolder,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return one(reply, await this.admin.retireWriteKey(id, ifMatch, holder));
  }

  @Get('destinations')
  @ApiTags('destinations')
  @ApiOperation({ operationId: 'listDestinations', summary: 'Every destination, secrets masked' })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: { destinations: { type: 'array', items: { $ref: getSchemaPath(Destination) } } },
    },
  })
  @Errors()
  listDestinations() {
    return { destinations: this.admin.listDestinations().map((v) => v.resource) };
  }

  @Post('destinations')
  @ApiTags('destinations')
  @ApiOperation({ operationId: 'createDestination', summary: 'Create a destination' })
  @ApiBody({ type: Destination })
  @ApiResponse({ status: 201, type: Destination })
  @Errors()
  async createDestination(
    @Body() body: Plain,
    @Holder() holder: TokenHolder,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return one(reply, await this.admin.createDestination(body, holder), 201);
  }

  @Get('destinations/:id')
  @ApiTags('destinations')
  @ApiOperation({
    operationId: 'getDestination',
    summary: 'One destination, secrets masked, with its revision as the ETag',
  })
  @ApiOkResponse({ type: Destination })
  @Errors()
  getDestination(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply) {
    return one(reply, this.admin.getDestination(id));
  }

  @Put('destinations/:id')
  @ApiTags('destinations')
  @ApiOperation({
    operationId: 'replaceDestination',
    summary: 'Replace a destination; a secret sent back masked keeps the stored secret',
  })
  @ApiHeader(IF_MATCH)
  @ApiBody({ type: Destination })
  @ApiOkResponse({ type: Destination })
  @Errors()
  async replaceDestination(
    @Param('id') id: string,
    @Body() body: Plain,
    @Headers('if-match') ifMatch: string | undefined,
    @Holder() holder: TokenHolder,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return one(reply, await this.admin.changeDestination(id, body, ifMatch, false, holder));
  }

  @Patch('destinations/:id')
  @ApiTags('destinations')
  @ApiOperation({
    operationId: 'updateDestination',
    summary: 'Change some fields of a destination (JSON merge patch)',
  })
  @ApiHeader(IF_MATCH)
  @ApiBody({ schema: { type: 'object', description: 'A JSON merge patch (RFC 7396) of the destination' } })
  @ApiOkResponse({ type: Destination })
  @Errors()
  async updateDestination(
    @Param('id') id: string,
    @Body() body: Plain,
    @Headers('if-match') ifMatch: string | undefined,
    @Holder() holder: TokenHolder,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return one(reply, await this.admin.changeDestination(id, body, ifMatch, true, holder));
  }

  @Delete('destinations/:id')
  @HttpCode(204)
  @ApiTags('destinations')
  @ApiOperation({ operationId: 'deleteDestination', summary: 'Delete a destination' })
  @ApiHeader(IF_MATCH)
  @ApiResponse({ status: 204, description: 'deleted' })
  @Errors()
  async deleteDestination(
    @Param('id') id: string,
    @Headers('if-match') ifMatch: string | undefined,
    @Holder() holder: TokenHolder,
  ) {
    await this.admin.deleteDestination(id, ifMatch, holder);
  }
}
