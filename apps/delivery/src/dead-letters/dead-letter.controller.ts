import { BadRequestException, Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { AdminTokenGuard } from '@switchyard/service';
import { DeadLetterFilter } from './dead-letter';
import { DeadLetterStore } from './dead-letter-store';

interface FilterInput {
  id?: unknown;
  destinationId?: unknown;
  messageId?: unknown;
  from?: unknown;
  to?: unknown;
}

const MAX_LISTED = 1000;

/** Operators list dead letters and replay them into delivery. */
@Controller('dead-letters')
@UseGuards(AdminTokenGuard)
export class DeadLetterController {
  constructor(private readonly store: DeadLetterStore) {}

  /** `GET /dead-letters?destinationId=&messageId=&from=&to=&limit=`: oldest first; `from`/`to` (ISO 8601) bound the dead-letter time. */
  @Get()
  async list(@Query() query: FilterInput & { limit?: string }) {
    const limit = query.limit === undefined ? MAX_LISTED : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LISTED)
      throw new BadRequestException(`limit must be an integer from 1 to ${MAX_LISTED}`);
    const records = await this.store.list(parseFilter(query));
    return { total: records.length, deadLetters: records.slice(0, limit).map((r) => r.letter) };
  }

  /** `POST /dead-letters/replay` with `{id}`, `{destinationId}`, `{messageId}`, `{from, to}` or a mix; an empty filter is refused. */
  @Post('replay')
  @HttpCode(200)
  async replay(@Body() body: FilterInput | undefined) {
    const filter = parseFilter(body ?? {});
    if (Object.values(filter).every((v) => v === undefined)) {
      throw new BadRequestException('name what to replay: id, destinationId, messageId, from and/or to');
    }
    const replayed = await this.store.replay(filter);
    return { replayed: replayed.length, ids: replayed.map((r) => r.letter.id) };
  }
}

function parseFilter(input: FilterInput): DeadLetterFilter {
  const text = (name: keyof FilterInput) => {
    const value = input[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') throw new BadRequestException(`${name} must be a string`);
    return value;
  };
  const time = (name: 'from' | 'to') => {
    const value = text(name);
    if (value === undefined) return undefined;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) throw new BadRequestException(`${name} must be an ISO 8601 date-time`);
    return ms;
  };
  const id = text('id');
  if (id !== undefined && !/^\d+:\d+$/.test(id))
    throw new BadRequestException('id must look like <partition>:<offset>');
  return {
    id,
    destinationId: text('destinationId'),
    messageId: text('messageId'),
    from: time('from'),
    to: time('to'),
  };
}
