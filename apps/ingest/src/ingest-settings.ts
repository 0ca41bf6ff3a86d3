import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateBy } from 'class-validator';
import {
  assertKafkaSettings,
  CommonSettings,
  commonSettingsFromEnv,
  ConfigError,
  envNumber,
  IntSetting,
  validateSettings,
} from '@switchyard/config';

/** An http(s) URL with an optional path, without query or fragment: how browsers and apps reach ingest. */
const PUBLIC_URL = /^https?:\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?(\/[A-Za-z0-9._~-]+)*$/;
/** Addresses or CIDR ranges (IPv4 or IPv6), or proxy-addr's names for the private ranges; comma-separated. */
const ADDRESS = '([0-9a-fA-F.:]+(\\/\\d{1,3})?|loopback|linklocal|uniquelocal)';
const ADDRESS_LIST = new RegExp(`^${ADDRESS}(\\s*,\\s*${ADDRESS})*$`);

function isTrustProxy(value: unknown): boolean {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isInteger(value) && value >= 1 && value <= 10;
  return typeof value === 'string' && ADDRESS_LIST.test(value);
}

/** Which peers may set X-Forwarded-For/-Proto/-Host: none, all, the nearest N hops, or these addresses. */
export type TrustProxy = boolean | number | string;

/** Ingest's settings: defaults, then the environment; validated at start-up. */
export class IngestSettings extends CommonSettings {
  /** Bytes of JSON per message (Segment: 32 KB). */
  @Type(() => Number)
  @IsInt()
  @Min(1024)
  @Max(1024 * 1024)
  maxMessageBytes!: number;

  /** Bytes of JSON per request after decompression (Segment: 500 KB). */
  @Type(() => Number)
  @IsInt()
  @Min(1024)
  @Max(16 * 1024 * 1024)
  maxRequestBytes!: number;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  maxBatchMessages!: number;

  /** How long produced records wait for company before a Kafka batch goes out. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100)
  produceLingerMs!: number;

  /** Nesting of objects and arrays in a request body (the body itself is level 1). Checked before parsing. */
  @IntSetting('INGEST_MAX_JSON_DEPTH', 8, 512)
  maxJsonDepth!: number;

  /**
   * How long a client may take to send a request's headers, and its whole request, before the
   * connection is closed (Node answers 408). Stops slow-header connections from piling up.
   */
  @IntSetting('INGEST_HEADERS_TIMEOUT_MS', 1000, 300_000)
  headersTimeoutMs!: number;

  @IntSetting('INGEST_REQUEST_TIMEOUT_MS', 1000, 600_000)
  requestTimeoutMs!: number;

  /** How long an idle keep-alive connection stays open; above a load balancer's idle timeout (AWS ALB: 60 s) so it closes first. */
  @IntSetting('INGEST_KEEP_ALIVE_TIMEOUT_MS', 1000, 600_000)
  keepAliveTimeoutMs!: number;

  /**
   * How long a request waits for Kafka's acknowledgement before it gets a 503 (well under the
   * SDKs' own 10-15 s client timeouts, so they see the 503 and retry instead of timing out).
   */
  @IntSetting('INGEST_PRODUCE_TIMEOUT_MS', 100, 60_000)
  produceTimeoutMs!: number;

  /** Bearer token for the admin endpoints (audience syncs, deletion requests). Unset: those endpoints answer 503. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'adminToken (ADMIN_TOKEN) must be at least 16 characters' })
  adminToken?: string;

  /**
   * The URL browsers and apps use to reach ingest (behind a load balancer or ingress), written
   * into the analytics.js settings and bundle. Unset: taken from each request's Host.
   */
  @IsOptional()
  @Matches(PUBLIC_URL, {
    message:
      'publicUrl (INGEST_PUBLIC_URL) must be an http(s) URL with an optional path, without query or fragment, e.g. https://events.example.com',
  })
  publicUrl?: string;

  /** Whose X-Forwarded-* headers to believe for the client address (context.ip) and the public URL. */
  @ValidateBy(
    { name: 'isTrustProxy', validator: { validate: isTrustProxy } },
    {
      message:
        'trustProxy (INGEST_TRUST_PROXY) must be false, true, a hop count (1-10) or a comma-separated list of addresses, CIDRs, loopback, linklocal or uniquelocal',
    },
  )
  trustProxy!: TrustProxy;
}

export function ingestSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): IngestSettings {
  const settings = validateSettings(
    IngestSettings,
    {
      ...commonSettingsFromEnv(env, 8080),
      maxMessageBytes: envNumber(env, 'INGEST_MAX_MESSAGE_BYTES', 32 * 1024),
      maxRequestBytes: envNumber(env, 'INGEST_MAX_REQUEST_BYTES', 500 * 1024),
      maxBatchMessages: envNumber(env, 'INGEST_MAX_BATCH_MESSAGES', 2500),
      produceLingerMs: envNumber(env, 'INGEST_PRODUCE_LINGER_MS', 2),
      maxJsonDepth: envNumber(env, 'INGEST_MAX_JSON_DEPTH', 64),
      headersTimeoutMs: envNumber(env, 'INGEST_HEADERS_TIMEOUT_MS', 10_000),
      requestTimeoutMs: envNumber(env, 'INGEST_REQUEST_TIMEOUT_MS', 30_000),
      keepAliveTimeoutMs: envNumber(env, 'INGEST_KEEP_ALIVE_TIMEOUT_MS', 72_000),
      produceTimeoutMs: envNumber(env, 'INGEST_PRODUCE_TIMEOUT_MS', 5000),
      adminToken: env.ADMIN_TOKEN || undefined,
      publicUrl: env.INGEST_PUBLIC_URL ? env.INGEST_PUBLIC_URL.replace(/\/+$/, '') : undefined,
      trustProxy: trustProxyFromEnv(env.INGEST_TRUST_PROXY),
    },
    'ingest settings',
  );
  // Node refuses a header timeout longer than the request's, and the headers are part of the request.
  if (settings.headersTimeoutMs > settings.requestTimeoutMs) {
    throw new ConfigError(
      'invalid ingest settings:\n  - headersTimeoutMs (INGEST_HEADERS_TIMEOUT_MS) must not exceed requestTimeoutMs (INGEST_REQUEST_TIMEOUT_MS)',
    );
  }
  assertKafkaSettings(settings, 'ingest settings');
  return settings;
}

/** Off by default: a client could otherwise write any address into context.ip. */
function trustProxyFromEnv(raw: string | undefined): TrustProxy {
  const value = (raw ?? '').trim();
  if (value === '' || /^(false|0|no|off)$/i.test(value)) return false;
  if (/^(true|yes|on)$/i.test(value)) return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
