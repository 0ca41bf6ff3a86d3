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
import { ConsoleAuthGuard } from '../auth/console-auth.guard';
import { ConsoleViews } from '../console-views';
import { DeliveryReplay } from '../replay/delivery-replay';
import { attemptFilter, limit, messageQuery, RawInput, replayFilter, text } from './query-params';

/** The console's JSON API: what the pages show, for scripts. Session cookie or bearer admin token. */
@Controller('api')
@UseGuards(ConsoleAuthGuard)
export class ConsoleApiController {
  constructor(
    private readonly views: ConsoleViews,
    private readonly replays: DeliveryReplay,
  ) {}

  /** `GET /api/destinations`: each with its health over its recent attempts. */
  @Get('destinations')
  destinations() {
    return { destinations: this.views.destinations() };
  }

  /** `GET /api/destinations/:id/attempts?outcome=&status=&from=&to=&limit=`: newest first. */
  @Get('destinations/:id/attempts')
  attempts(@Param('id') id: string, @Query() query: RawInput) {
    if (!this.views.isKnownDestination(id))
      throw new NotFoundException(`no destination ${id} in the workspace or the attempts held`);
    return {
      destination: this.views.destination(id),
      attempts: this.views.attempts(id, attemptFilter(query), limit(query, 100)),
    };
  }

  /** `GET /api/messages?messageId=` or `?userId=`: each message with all its attempts, oldest first. */
  @Get('messages')
  messages(@Query() query: RawInput) {
    return { messages: this.views.messages(messageQuery(query)) };
  }

  /** `GET /api/dead-letters?destinationId=&limit=`: the dead-letter topic's records, newest first, each with the attempt that dead-lettered it and the job's latest. */
  @Get('dead-letters')
  deadLetters(@Query() query: RawInput) {
    return { deadLetters: this.views.deadLetters(text(query, 'destinationId'), limit(query, 100)) };
  }

  /** `POST /api/replay` with `{id}`, `{messageId}`, `{destinationId}`, `{from, to}` or a mix: through delivery's replay. */
  @Post('replay')
  @HttpCode(200)
  replay(@Body() body: RawInput) {
    return this.replays.replay(replayFilter(body));
  }

  /** `GET /api/sources/:id/calls?limit=`: the live debugger, the source's last calls, newest first. */
  @Get('sources/:id/calls')
  calls(@Param('id') id: string, @Query() query: RawInput) {
    if (!this.views.isKnownSource(id)) throw new NotFoundException(`no source ${id} in the workspace`);
    return { sourceId: id, calls: this.views.calls(id, limit(query, 50)) };
  }

  /** `GET /api/index`: what the in-memory index holds, its limits and its evictions. */
  @Get('index')
  index() {
    return this.views.index();
  }
}
