import {
  Body,
  Controller,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ConsoleAuthGuard } from '../auth/console-auth.guard';
import { ConsoleViews } from '../console-views';
import { DeliveryReplay } from '../replay/delivery-replay';
import { attemptFilter, limit, messageQuery, RawInput, replayFilter, text } from './query-params';

const OBJECT = { schema: { type: 'object' } };
const READ_ERRORS = [
  { status: 400, description: 'a query parameter breaks its rule, named in the message' },
  { status: 401, description: 'token missing or wrong' },
];
const Errors = (): MethodDecorator => (target, key, descriptor) => {
  for (const error of READ_ERRORS) ApiResponse(error)(target, key, descriptor);
};

/**
 * The console's delivery tools as JSON, for scripts: destination health, attempts, message
 * lookup, dead letters and replay, the live debugger. Under the management API's prefix; the
 * paths under `/api/` without `v1` are the older aliases, kept for one release.
 */
@Controller()
@UseGuards(ConsoleAuthGuard)
@ApiBearerAuth()
@ApiTags('delivery')
export class ConsoleApiController {
  constructor(
    private readonly views: ConsoleViews,
    private readonly replays: DeliveryReplay,
  ) {}

  @Get(['api/v1/health/destinations', 'api/destinations'])
  @ApiOperation({
    operationId: 'destinationHealth',
    summary: 'Each destination with its health over its recent attempts',
  })
  @ApiOkResponse(OBJECT)
  @Errors()
  destinations() {
    return { destinations: this.views.destinations() };
  }

  @Get(['api/v1/destinations/:id/attempts', 'api/destinations/:id/attempts'])
  @ApiOperation({ operationId: 'listAttempts', summary: "A destination's webhook requests, newest first" })
  @ApiQuery({ name: 'outcome', required: false })
  @ApiQuery({ name: 'status', required: false, schema: { type: 'integer' } })
  @ApiQuery({ name: 'from', required: false, description: 'ISO 8601' })
  @ApiQuery({ name: 'to', required: false, description: 'ISO 8601' })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000 } })
  @ApiOkResponse(OBJECT)
  @ApiResponse({ status: 404, description: 'no such destination in the workspace or the attempts held' })
  @Errors()
  attempts(@Param('id') id: string, @Query() query: RawInput) {
    if (!this.views.isKnownDestination(id))
      throw new NotFoundException(`no destination ${id} in the workspace or the attempts held`);
    return {
      destination: this.views.destination(id),
      attempts: this.views.attempts(id, attemptFilter(query), limit(query, 100)),
    };
  }

  @Get(['api/v1/messages', 'api/messages'])
  @ApiOperation({
    operationId: 'findMessages',
    summary: 'A message (by messageId) or a user’s messages, with every attempt',
  })
  @ApiQuery({ name: 'messageId', required: false })
  @ApiQuery({ name: 'userId', required: false, description: 'userId or anonymousId' })
  @ApiOkResponse(OBJECT)
  @Errors()
  messages(@Query() query: RawInput) {
    return { messages: this.views.messages(messageQuery(query)) };
  }

  @Get(['api/v1/dead-letters', 'api/dead-letters'])
  @ApiOperation({
    operationId: 'listDeadLetters',
    summary: "The dead-letter topic's records, newest first, each with the attempt that dead-lettered it",
  })
  @ApiQuery({ name: 'destinationId', required: false })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000 } })
  @ApiOkResponse(OBJECT)
  @Errors()
  deadLetters(@Query() query: RawInput) {
    return { deadLetters: this.views.deadLetters(text(query, 'destinationId'), limit(query, 100)) };
  }

  @Post(['api/v1/replay', 'api/replay'])
  @HttpCode(200)
  @ApiOperation({
    operationId: 'replayDeadLetters',
    summary: 'Replays dead letters through delivery: by id, messageId, destinationId, a time range, or a mix',
  })
  @ApiBody(OBJECT)
  @ApiOkResponse(OBJECT)
  @ApiResponse({ status: 403, description: 'a viewer token tried to replay' })
  @Errors()
  replay(@Body() body: RawInput) {
    return this.replays.replay(replayFilter(body));
  }

  @Get(['api/v1/sources/:id/calls', 'api/sources/:id/calls'])
  @ApiOperation({
    operationId: 'liveDebugger',
    summary: "The live debugger: a source's last calls, newest first",
  })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000 } })
  @ApiOkResponse(OBJECT)
  @ApiResponse({ status: 404, description: 'no such source in the workspace' })
  @Errors()
  calls(@Param('id') id: string, @Query() query: RawInput) {
    if (!this.views.isKnownSource(id)) throw new NotFoundException(`no source ${id} in the workspace`);
    return { sourceId: id, calls: this.views.calls(id, limit(query, 50)) };
  }

  @Get(['api/v1/index', 'api/index'])
  @ApiOperation({
    operationId: 'indexStats',
    summary: 'What the in-memory index holds, its limits and its evictions',
  })
  @ApiOkResponse(OBJECT)
  @Errors()
  index() {
    return this.views.index();
  }
}
