import 'reflect-metadata';
import { ApiProperty, ApiPropertyOptional } from '../openapi-decorators';
import { plainToInstance, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  NotEquals,
  ValidateIf,
  ValidateNested,
  validateSync,
} from '../class-validator';
import { FieldError, flattenValidationErrors } from '../validation-errors';
import { normaliseTimestamp } from '../calls/timestamp';

/** What a computation produces per user: audience membership (a boolean) or a computed trait's value. */
export const COMPUTATION_CLASSES = ['audience', 'computed_trait'] as const;
export type ComputationClass = (typeof COMPUTATION_CLASSES)[number];

/** Most members one page (or one delta) may carry; an audience of any size syncs as several pages. */
export const MAX_MEMBERS_PER_PAGE = 10_000;

/** Ids are used in record keys (`<computationId>:<userId>`), so they may not hold a colon. */
const COMPUTATION_ID = /^[A-Za-z0-9_.-]{1,128}$/;

const SYNC_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** What the snake_case rule can produce, accents and other scripts included. */
const TRAIT_KEY = /^[\p{L}\p{M}\p{N}_]{1,200}$/u;

export class Computation {
  @ApiProperty({ enum: COMPUTATION_CLASSES })
  @IsIn(COMPUTATION_CLASSES as unknown as string[], {
    message: `computation.class must be one of: ${COMPUTATION_CLASSES.join(', ')}`,
  })
  class!: ComputationClass;

  @ApiProperty({
    pattern: COMPUTATION_ID.source,
    description: 'The audience or computed trait; the record key.',
  })
  @IsString()
  @Matches(COMPUTATION_ID, { message: 'id may hold letters, digits, dot, dash and underscore (1-128)' })
  id!: string;

  /** Human name; its snake_case form is the trait key the receivers see. */
  @ApiProperty({
    minLength: 1,
    maxLength: 200,
    description: 'Its snake_case form is the trait key receivers see.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  /**
   * The trait key to send instead of the name's snake_case form: for receivers that rely on a key
   * an earlier version made (`i_os_14_users` for "iOS 14 Users"). Used exactly as given.
   */
  @ApiPropertyOptional({
    pattern: TRAIT_KEY.source,
    description: "The trait key to send instead of the name's snake_case form, used exactly as given.",
  })
  @IsOptional()
  @IsString()
  @Matches(TRAIT_KEY, { message: 'computation.traitKey may hold letters, digits and underscores (1-200)' })
  @NotEquals('__proto__', { message: 'computation.traitKey may not be __proto__' })
  traitKey?: string;

  /** The personalization space (`context.personas.space_id`). */
  @ApiProperty({
    minLength: 1,
    maxLength: 128,
    description: 'The personalization space (context.personas.space_id).',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  spaceId!: string;

  /** The source whose destinations receive the resulting identify calls. */
  @ApiProperty({
    minLength: 1,
    maxLength: 128,
    description: 'A source of the workspace: its destinations receive the resulting identify calls.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  sourceId!: string;
}

/** One user: audiences need only the id; computed traits carry the trait's value (any JSON but null). */
export class Member {
  @ApiProperty({ minLength: 1, maxLength: 512 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  userId!: string;

  @ApiPropertyOptional({
    description: "A computed trait's value: any JSON but null. Audiences leave it out.",
  })
  @IsOptional()
  value?: unknown;
}

export class SnapshotPage {
  /** 1-based; a sync's pages are sent in order, one at a time. */
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: '1-based; pages are sent in order, one at a time.',
  })
  @IsInt()
  @Min(1)
  page!: number;

  /** True on the last page: members not in any page of this sync then leave. */
  @ApiProperty({ description: 'True on the last page: members not in any page of this sync then leave.' })
  @IsBoolean()
  final!: boolean;

  @ApiProperty({ type: () => [Member], maxItems: MAX_MEMBERS_PER_PAGE })
  @IsArray()
  @ArrayMaxSize(MAX_MEMBERS_PER_PAGE)
  @ValidateNested({ each: true })
  @Type(() => Member)
  members!: Member[];
}

export class Delta {
  @ApiProperty({ type: () => [Member], maxItems: MAX_MEMBERS_PER_PAGE })
  @IsArray()
  @ArrayMaxSize(MAX_MEMBERS_PER_PAGE)
  @ValidateNested({ each: true })
  @Type(() => Member)
  added!: Member[];

  @ApiProperty({ type: [String], maxItems: MAX_MEMBERS_PER_PAGE, description: 'User ids that leave.' })
  @IsArray()
  @ArrayMaxSize(MAX_MEMBERS_PER_PAGE)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  removed!: string[];
}

/**
 * What the personalization product sends (body of the audience-sync endpoint): either one page of a
 * full snapshot or explicit added/removed lists. All pages of a snapshot share one `syncId`.
 */
export class AudienceSyncBody {
  @ApiProperty({ pattern: SYNC_ID.source, description: 'Shared by every page of one snapshot.' })
  @IsString()
  @Matches(SYNC_ID, {
    message: 'syncId may hold letters, digits, dot, colon, dash and underscore (1-128)',
  })
  syncId!: string;

  @ApiProperty({ type: () => Computation })
  @IsDefined()
  @ValidateNested()
  @Type(() => Computation)
  computation!: Computation;

  @ApiPropertyOptional({
    type: () => SnapshotPage,
    description: 'One page of a full snapshot; or else `delta`.',
  })
  @ValidateIf((o: AudienceSyncBody) => o.delta === undefined)
  @IsDefined({ message: 'exactly one of snapshot or delta is required' })
  @ValidateNested()
  @Type(() => SnapshotPage)
  snapshot?: SnapshotPage;

  @ApiPropertyOptional({ type: () => Delta, description: 'Explicit changes; or else `snapshot`.' })
  @ValidateIf((o: AudienceSyncBody) => o.snapshot === undefined)
  @IsDefined({ message: 'exactly one of snapshot or delta is required' })
  @ValidateNested()
  @Type(() => Delta)
  delta?: Delta;
}

/** Value of a record on the audiences topic; key: `computation.id`, so all pages of one audience share a partition. */
export interface AudienceSynced {
  syncId: string;
  computation: Computation;
  snapshot?: SnapshotPage;
  delta?: Delta;
  /** When ingest accepted this page; the identify calls' timestamp (stable when replayed). ISO 8601 UTC. */
  receivedAt: string;
}

export function validateAudienceSyncBody(raw: unknown): FieldError[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return [{ field: '', reason: 'body must be a JSON object' }];
  const instance = plainToInstance(AudienceSyncBody, raw, { enableImplicitConversion: false });
  const problems = flattenValidationErrors(
    validateSync(instance, { forbidUnknownValues: false, validationError: { target: false } }),
  );
  if (instance.snapshot !== undefined && instance.delta !== undefined)
    problems.push({ field: 'delta', reason: 'exactly one of snapshot or delta is required' });
  if (instance.computation?.class === 'computed_trait') problems.push(...traitValueProblems(instance));
  return problems;
}

/** Checks an audiences-topic value: the body's rules plus the field ingest adds. */
export function validateAudienceSynced(raw: unknown): FieldError[] {
  const problems = validateAudienceSyncBody(raw);
  if (normaliseTimestamp((raw as Partial<AudienceSynced> | null)?.receivedAt) === undefined) {
    problems.push({ field: 'receivedAt', reason: 'receivedAt must be an ISO 8601 date-time' });
  }
  return problems;
}

function traitValueProblems(body: AudienceSyncBody): FieldError[] {
  const [field, members] = body.snapshot
    ? ['snapshot.members', body.snapshot.members]
    : ['delta.added', body.delta?.added];
  return (members ?? []).flatMap((m, i) =>
    m.value === undefined || m.value === null
      ? [{ field: `${field}.${i}.value`, reason: 'a computed trait member needs a value (not null)' }]
      : [],
  );
}
