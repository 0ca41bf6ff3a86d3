import { ApiProperty, ApiPropertyOptional } from '@switchyard/contracts';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsNumber,
  IsOptional,
  Max,
  Min,
} from '@switchyard/contracts/class-validator';

const SECOND = 1000;
const HOUR = 60 * 60 * SECOND;

/** The longest retry window a destination may set; retry topics keep their records at least this long. */
export const MAX_DESTINATION_RETRY_WINDOW_MS = 72 * HOUR;
const MIN_DESTINATION_RETRY_WINDOW_MS = SECOND;
const MAX_SCHEDULE_ENTRIES = 20;
const MIN_DELAY_MS = 10;
const MAX_DELAY_MS = 24 * HOUR;
const MAX_PER_SECOND = 100_000;

/** Requests per second a destination accepts, held across every delivery instance together. */
export class RateLimit {
  @ApiProperty({
    minimum: 0.01,
    maximum: MAX_PER_SECOND,
    description:
      'Requests per second, summed over every delivery instance (fractions allowed: 0.5 is one every 2 s).',
  })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'perSecond must be a number' })
  @Min(0.01, { message: 'perSecond must be at least 0.01' })
  @Max(MAX_PER_SECOND, { message: `perSecond must be at most ${MAX_PER_SECOND}` })
  perSecond!: number;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_PER_SECOND,
    description:
      'Requests that may go at once after a quiet spell; default: one second of perSecond (at least 1).',
  })
  @IsOptional()
  @IsInt({ message: 'burst must be a whole number' })
  @Min(1, { message: 'burst must be at least 1' })
  @Max(MAX_PER_SECOND, { message: `burst must be at most ${MAX_PER_SECOND}` })
  burst?: number;
}

/** A destination's own retry policy; each field left out keeps the service default. */
export class RetryPolicySettings {
  @ApiPropertyOptional({
    minimum: MIN_DESTINATION_RETRY_WINDOW_MS,
    maximum: MAX_DESTINATION_RETRY_WINDOW_MS,
    description:
      'No retry starts later than this after the first attempt (up to 72 h); default: DELIVERY_RETRY_WINDOW_MS.',
  })
  @IsOptional()
  @IsInt({ message: 'windowMs must be a whole number of milliseconds' })
  @Min(MIN_DESTINATION_RETRY_WINDOW_MS, {
    message: `windowMs must be at least ${MIN_DESTINATION_RETRY_WINDOW_MS}`,
  })
  @Max(MAX_DESTINATION_RETRY_WINDOW_MS, {
    message: `windowMs must be at most ${MAX_DESTINATION_RETRY_WINDOW_MS} (72 h)`,
  })
  windowMs?: number;

  @ApiPropertyOptional({
    type: [Number],
    minItems: 1,
    maxItems: MAX_SCHEDULE_ENTRIES,
    description:
      'Delay before retry 1, 2, … in ms; must not decrease; the last repeats. Default: DELIVERY_RETRY_SCHEDULE_MS.',
  })
  @IsOptional()
  @IsArray({ message: 'scheduleMs must be a list of delays in milliseconds' })
  @ArrayMinSize(1, { message: 'scheduleMs must list at least one delay' })
  @ArrayMaxSize(MAX_SCHEDULE_ENTRIES, {
    message: `scheduleMs may list at most ${MAX_SCHEDULE_ENTRIES} delays`,
  })
  @IsInt({ each: true, message: 'scheduleMs entries must be whole numbers of milliseconds' })
  @Min(MIN_DELAY_MS, { each: true, message: `scheduleMs entries must be at least ${MIN_DELAY_MS}` })
  @Max(MAX_DELAY_MS, { each: true, message: `scheduleMs entries must be at most ${MAX_DELAY_MS} (24 h)` })
  scheduleMs?: number[];
}

/** Rules of a retry policy beyond its fields' own; `prefix` names where it sits (`settings.retry.`). */
export function retryPolicyProblems(retry: RetryPolicySettings | undefined, prefix: string): string[] {
  const schedule = retry?.scheduleMs;
  if (!schedule) return [];
  const problems: string[] = [];
  if (schedule.some((delay, i) => i > 0 && delay < schedule[i - 1]))
    problems.push(`${prefix}scheduleMs: delays must not decrease`);
  if (retry.windowMs !== undefined && schedule[0] >= retry.windowMs)
    problems.push(
      `${prefix}windowMs: must be longer than the first delay of scheduleMs, or nothing is retried`,
    );
  return problems;
}
