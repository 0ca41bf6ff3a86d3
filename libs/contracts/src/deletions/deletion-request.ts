import 'reflect-metadata';
import { ApiProperty, ApiPropertyOptional } from '../openapi-decorators';
import { plainToInstance } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  validateSync,
} from '../class-validator';
import { flattenValidationErrors, FieldError } from '../validation-errors';
import { normaliseTimestamp } from '../calls/timestamp';

/** Most user ids one deletion request may name; larger erasures are split by the caller. */
export const MAX_DELETION_USER_IDS = 10_000;

/** What an operator sends to request a deletion (body of the deletion endpoint). */
export class DeletionRequestBody {
  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_DELETION_USER_IDS })
  @IsArray()
  @ArrayMinSize(1, { message: 'userIds must name at least one user' })
  @ArrayMaxSize(MAX_DELETION_USER_IDS, {
    message: `userIds may name at most ${MAX_DELETION_USER_IDS} users per request`,
  })
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(512, { each: true })
  userIds!: string[];

  /** Limits the request to these sources; absent means every source. */
  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    description: 'Sources of the workspace to limit the request to; absent: every source.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'sourceIds, when given, must name at least one source' })
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  sourceIds?: string[];
}

/**
 * Value of a record on the deletions topic (key: requestId). The router turns it into one
 * delete notification per user and affected source with an enabled Webhooks destination.
 */
export interface DeletionRequested {
  requestId: string;
  userIds: string[];
  sourceIds?: string[];
  /** When ingest accepted the request; the notifications' timestamp. ISO 8601 UTC. */
  requestedAt: string;
}

export function validateDeletionRequestBody(raw: unknown): FieldError[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return [{ field: '', reason: 'body must be a JSON object' }];
  const instance = plainToInstance(DeletionRequestBody, raw, { enableImplicitConversion: false });
  return flattenValidationErrors(
    validateSync(instance, { forbidUnknownValues: false, validationError: { target: false } }),
  );
}

/** Checks a deletions-topic value: the body's rules plus the fields ingest adds. */
export function validateDeletionRequested(raw: unknown): FieldError[] {
  const problems = validateDeletionRequestBody(raw);
  if (problems.length > 0) return problems;
  const value = raw as Partial<DeletionRequested>;
  if (typeof value.requestId !== 'string' || value.requestId === '')
    problems.push({ field: 'requestId', reason: 'requestId is required' });
  if (normaliseTimestamp(value.requestedAt) === undefined)
    problems.push({ field: 'requestedAt', reason: 'requestedAt must be an ISO 8601 date-time' });
  return problems;
}
