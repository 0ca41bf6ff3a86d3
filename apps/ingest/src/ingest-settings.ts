import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { CommonSettings, commonSettingsFromEnv, envNumber, validateSettings } from '@switchyard/config';

/** Ingest's settings: defaults, then the environment; validated at start-up. */
export class IngestSettings extends CommonSettings {
  /** Bytes of JSON per message (Segment: 32 KB). */
  @Type(() => Number) @IsInt() @Min(1024) @Max(1024 * 1024)
  maxMessageBytes!: number;

  /** Bytes of JSON per request after decompression (Segment: 500 KB). */
  @Type(() => Number) @IsInt() @Min(1024) @Max(16 * 1024 * 1024)
  maxRequestBytes!: number;

  @Type(() => Number) @IsInt() @Min(1) @Max(100_000)
  maxBatchMessages!: number;

  /** How long produced records wait for company before a Kafka batch goes out. */
  @Type(() => Number) @IsInt() @Min(0) @Max(100)
  produceLingerMs!: number;

  /** Bearer token for the admin endpoints (audience syncs, deletion requests). Unset: those endpoints answer 503. */
  @IsOptional() @IsString() @MinLength(16, { message: 'adminToken (ADMIN_TOKEN) must be at least 16 characters' })
  adminToken?: string;
}

export function ingestSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): IngestSettings {
  return validateSettings(
    IngestSettings,
    {
      ...commonSettingsFromEnv(env, 8080),
      maxMessageBytes: envNumber(env, 'INGEST_MAX_MESSAGE_BYTES', 32 * 1024),
      maxRequestBytes: envNumber(env, 'INGEST_MAX_REQUEST_BYTES', 500 * 1024),
      maxBatchMessages: envNumber(env, 'INGEST_MAX_BATCH_MESSAGES', 2500),
      produceLingerMs: envNumber(env, 'INGEST_PRODUCE_LINGER_MS', 2),
      adminToken: env.ADMIN_TOKEN || undefined,
    },
    'ingest settings',
  );
}

