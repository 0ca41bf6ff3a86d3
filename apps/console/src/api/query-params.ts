import { BadRequestException } from '@nestjs/common';
import { ATTEMPT_OUTCOMES } from '@switchyard/contracts';
import { AttemptFilter } from '../index/attempt-index';
import type { AuditFilter } from '../workspace/audit-trail';

/** Raw query-string or form input: Fastify gives strings, or arrays when a name repeats. */
export type RawInput = Record<string, unknown> | undefined;

export const MAX_LIMIT = 1000;

/** An optional non-empty string field; anything else is a 400 that names it. */
export function text(input: RawInput, name: string): string | undefined {
  const value = input?.[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new BadRequestException(`${name} must be given once, as text`);
  if (value.length > 512) throw new BadRequestException(`${name} must be at most 512 characters`);
  return value;
}

export function limit(input: RawInput, fallback: number): number {
  const value = text(input, 'limit');
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT)
    throw new BadRequestException(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  return n;
}

/** An ISO 8601 date-time, as epoch ms. */
export function time(input: RawInput, name: string): number | undefined {
  const value = text(input, name);
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms))
    throw new BadRequestException(`${name} must be an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z`);
  return ms;
}

/** `outcome`, `status`, `from`, `to` of a destination's attempts. */
export function attemptFilter(input: RawInput): AttemptFilter {
  const outcome = text(input, 'outcome');
  if (outcome !== undefined && !(ATTEMPT_OUTCOMES as readonly string[]).includes(outcome)) {
    throw new BadRequestException(`outcome must be one of ${ATTEMPT_OUTCOMES.join(', ')}`);
  }
  const statusText = text(input, 'status');
  const status = statusText === undefined ? undefined : Number(statusText);
  if (status !== undefined && !(Number.isInteger(status) && status >= 100 && status <= 599))
    throw new BadRequestException('status must be an HTTP status code, 100-599');
  return { outcome, status, from: time(input, 'from'), to: time(input, 'to') };
}

/** `messageId` or `userId` (userId matches anonymousId too), exactly one. */
export function messageQuery(input: RawInput): { messageId?: string; userId?: string } {
  const messageId = text(input, 'messageId');
  const userId = text(input, 'userId');
  if ((messageId === undefined) === (userId === undefined))
    throw new BadRequestException('give either messageId or userId');
  return { messageId, userId };
}

/** A replay filter; an empty one is refused rather than replaying every dead letter. */
export function replayFilter(input: RawInput): {
  id?: string;
  messageId?: string;
  destinationId?: string;
  from?: string;
  to?: string;
} {
  const iso = (name: string) => {
    const ms = time(input, name);
    return ms === undefined ? undefined : new Date(ms).toISOString();
  };
  const id = text(input, 'id');
  if (id !== undefined && !/^\d+:\d+$/.test(id))
    throw new BadRequestException('id must name a dead letter as <partition>:<offset>');
  const filter = {
    id,
    messageId: text(input, 'messageId'),
    destinationId: text(input, 'destinationId'),
    from: iso('from'),
    to: iso('to'),
  };
  if (Object.values(filter).every((v) => v === undefined))
    throw new BadRequestException('name what to replay: id, messageId, destinationId, from and/or to');
  return filter;
}

/** `kind`, `id`, `from`, `to`, `limit` of the audit trail. */
export function auditFilter(input: RawInput): AuditFilter {
  const kind = text(input, 'kind');
  if (kind !== undefined && kind !== 'source' && kind !== 'destination')
    throw new BadRequestException('kind must be source or destination');
  const iso = (name: string) => {
    const ms = time(input, name);
    return ms === undefined ? undefined : new Date(ms).toISOString();
  };
  return { kind, id: text(input, 'id'), from: iso('from'), to: iso('to'), limit: limit(input, 100) };
}
