import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  ValidateNested,
  validateSync,
} from '@switchyard/contracts/class-validator';

import { ApiProperty, ApiPropertyOptional, flattenValidationErrors } from '@switchyard/contracts';
import {
  DEFAULT_SIGNATURE_SCHEME,
  NEXT_SIGNATURE_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_SCHEMES,
  SignatureScheme,
  STANDARD_WEBHOOKS_HEADERS,
} from '@switchyard/webhooks';
import { RateLimit, retryPolicyProblems, RetryPolicySettings } from './destination-delivery-policy';
import { FilterRule, FilterRules } from './destination-filters';
import { headerValueProblem } from './header-value';
import { signingProblems, STANDARD_SECRET_RULE } from './webhook-signing';

export * from './destination-delivery-policy';
export * from './destination-filters';

export const WEBHOOKS_DESTINATION_TYPE = 'Webhooks';
export const MAX_WEBHOOK_URLS = 5;

/** Headers Switchyard sets itself; a static header may not replace them. */
const RESERVED_HEADERS = [
  'content-type',
  'content-length',
  'user-agent',
  SIGNATURE_HEADER.toLowerCase(),
  NEXT_SIGNATURE_HEADER.toLowerCase(),
  ...Object.values(STANDARD_WEBHOOKS_HEADERS),
  'host',
  'transfer-encoding',
  'connection',
];

const ID_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
const WRITE_KEY = /^\S{8,256}$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A browser origin (scheme, host, optional port), the host optionally starting with `*.`. */
const ORIGIN_PATTERN = /^https?:\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$/;
/** A date-time that names its offset, so every instance reads the same instant. */
const DATE_TIME_WITH_OFFSET = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const EXPIRY_RULE =
  'previousSecretExpiresAt must be an ISO 8601 date-time with an offset, such as 2026-07-01T00:00:00Z';

export class Source {
  @ApiProperty({
    pattern: ID_PATTERN.source,
    description: 'Unique, chosen at creation; names the source in URLs.',
  })
  @IsString()
  @Matches(ID_PATTERN, {
    message: 'id may hold letters, digits, dot, dash and underscore (1-128)',
  })
  id!: string;

  @ApiProperty({ minLength: 1 })
  @IsString()
  @IsNotEmpty()
  name!: string;

  @ApiProperty({
    pattern: WRITE_KEY.source,
    description:
      'The key SDKs send as the Basic username. Generated (192 random bits) when a source is created without one.',
  })
  @IsString()
  @Matches(WRITE_KEY, { message: 'writeKey must be 8-256 characters without spaces' })
  writeKey!: string;

  /** The key being retired while callers move to `writeKey`; both are accepted until it is removed. */
  @ApiPropertyOptional({
    pattern: WRITE_KEY.source,
    description: 'Still accepted while a key rotation is under way.',
  })
  @IsOptional()
  @IsString()
  @Matches(WRITE_KEY, { message: 'previousWriteKey must be 8-256 characters without spaces' })
  previousWriteKey?: string;

  /**
   * Browser origins whose pages may send this source's calls (`https://shop.example.com`, or
   * `https://*.example.com` for its subdomains). Unset: any origin, as Segment allows.
   */
  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    description:
      'Browser origins allowed to send calls (https://shop.example.com, https://*.example.com). Unset: any.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'allowedOrigins, when set, must list at least one origin' })
  @Matches(ORIGIN_PATTERN, {
    each: true,
    message:
      'allowedOrigins entries must be origins like https://shop.example.com or https://*.example.com (scheme, host, optional port; no path)',
  })
  allowedOrigins?: string[];
}

export class WebhookTarget {
  @ApiProperty({
    format: 'uri',
    description: 'An http or https URL; the URLs are tried in order until one answers 2xx.',
  })
  @IsUrl(
    {
      protocols: ['http', 'https'],
      require_protocol: true,
      require_tld: false,
      require_valid_protocol: true,
    },
    { message: 'url must be a full http or https URL, protocol included' },
  )
  url!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Static headers sent with every request to this URL. Values are secrets: answered masked.',
  })
  @IsOptional()
  @IsObject()
  headers?: Record<string, string>;
}

export class WebhooksSettings {
  @ApiPropertyOptional({
    writeOnly: true,
    description:
      `Signs each request. For "standard-webhooks" and "both" it is a Standard Webhooks secret (${STANDARD_SECRET_RULE}). ` +
      'Write-only: answered masked; send the mask back to keep it.',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'sharedSecret, when set, must not be empty' })
  sharedSecret?: string;

  @ApiPropertyOptional({
    enum: SIGNATURE_SCHEMES,
    default: DEFAULT_SIGNATURE_SCHEME,
    description:
      '"segment": X-Signature (hex HMAC-SHA1 of the body); "standard-webhooks": webhook-id, webhook-timestamp ' +
      'and webhook-signature (HMAC-SHA256 of id.timestamp.body); "both": all of them.',
  })
  @IsOptional()
  @IsIn(SIGNATURE_SCHEMES, { message: `signature must be one of ${SIGNATURE_SCHEMES.join(', ')}` })
  signature?: SignatureScheme;

  @ApiPropertyOptional({
    writeOnly: true,
    description:
      'The secret being retired: it still signs until previousSecretExpiresAt, so receivers can move to ' +
      'sharedSecret at their own pace. Write-only: answered masked; send the mask back to keep it.',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'previousSecret, when set, must not be empty' })
  previousSecret?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'When previousSecret stops signing (ISO 8601 with an offset). Required with previousSecret.',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: EXPIRY_RULE })
  @Matches(DATE_TIME_WITH_OFFSET, { message: EXPIRY_RULE })
  previousSecretExpiresAt?: string;

  @ApiProperty({ type: () => [WebhookTarget], minItems: 1, maxItems: MAX_WEBHOOK_URLS })
  @IsArray()
  @ArrayMinSize(1, { message: 'webhooks must list at least one URL' })
  @ArrayMaxSize(MAX_WEBHOOK_URLS, { message: `webhooks may list at most ${MAX_WEBHOOK_URLS} URLs` })
  @ValidateNested({ each: true })
  @Type(() => WebhookTarget)
  webhooks!: WebhookTarget[];

  @ApiPropertyOptional({
    type: () => RateLimit,
    description: 'Unset: no limit beyond DELIVERY_MAX_IN_FLIGHT_PER_DESTINATION (and slowing down on 429).',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => RateLimit)
  rateLimit?: RateLimit;

  @ApiPropertyOptional({ type: () => RetryPolicySettings, description: 'Unset: the service defaults.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => RetryPolicySettings)
  retry?: RetryPolicySettings;
}

export class Destination {
  @ApiProperty({
    pattern: ID_PATTERN.source,
    description: 'Unique, chosen at creation; names the destination in URLs.',
  })
  @IsString()
  @Matches(ID_PATTERN, {
    message: 'id may hold letters, digits, dot, dash and underscore (1-128)',
  })
  id!: string;

  @ApiProperty({ enum: [WEBHOOKS_DESTINATION_TYPE] })
  @IsIn([WEBHOOKS_DESTINATION_TYPE], { message: `type must be "${WEBHOOKS_DESTINATION_TYPE}"` })
  type!: typeof WEBHOOKS_DESTINATION_TYPE;

  /** The integrations key that names this destination in a call; the type's name by default. */
  @ApiPropertyOptional({
    minLength: 1,
    description: 'The key that names it in a call\'s integrations object; "Webhooks" by default.',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  name?: string;

  @ApiProperty()
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled!: boolean;

  @ApiProperty({
    type: [String],
    description: 'Ids of the sources whose calls it receives; each must exist.',
  })
  @IsArray()
  @IsString({ each: true })
  sources!: string[];

  @ApiProperty({ type: () => WebhooksSettings })
  @ValidateNested()
  @Type(() => WebhooksSettings)
  settings!: WebhooksSettings;

  @FilterRules()
  filters?: FilterRule[];
}

export class WorkspaceConfig {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Source)
  sources!: Source[];

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Destination)
  destinations!: Destination[];
}

/** Rules that span fields: unique ids and keys, references that resolve, header values. */
export function crossFieldProblems(config: WorkspaceConfig): string[] {
  const problems: string[] = [];
  const duplicates = (values: string[]) => values.filter((v, i) => values.indexOf(v) !== i);
  for (const id of duplicates(config.sources.map((s) => s.id)))
    problems.push(`sources: id "${id}" is used twice`);
  if (duplicates(config.sources.flatMap(writeKeysOf)).length > 0)
    problems.push('sources: a writeKey is used by two sources');
  for (const id of duplicates(config.destinations.map((d) => d.id)))
    problems.push(`destinations: id "${id}" is used twice`);
  const sourceIds = new Set(config.sources.map((s) => s.id));
  config.destinations.forEach((d, i) =>
    problems.push(...destinationProblems(d, sourceIds, `destinations[${i}].`)),
  );
  return problems;
}

/** Every key a source accepts: the current one, and the one being retired while it is rotated. */
export function writeKeysOf(source: Source): string[] {
  return source.previousWriteKey ? [source.writeKey, source.previousWriteKey] : [source.writeKey];
}

/** A destination's rules beyond its fields' own: its sources exist, its static headers can be sent. */
export function destinationProblems(
  destination: Destination,
  sourceIds: ReadonlySet<string>,
  prefix = '',
): string[] {
  const problems: string[] = [];
  for (const s of destination.sources) {
    if (!sourceIds.has(s)) problems.push(`${prefix}sources: unknown source "${s}"`);
  }
  problems.push(...signingProblems(destination.settings, `${prefix}settings.`));
  problems.push(...retryPolicyProblems(destination.settings.retry, `${prefix}settings.retry.`));
  destination.settings.webhooks.forEach((w, j) => {
    for (const [name, value] of Object.entries(w.headers ?? {})) {
      problems.push(...headerProblems(`${prefix}settings.webhooks[${j}].headers.${name}`, name, value));
    }
  });
  return problems;
}

function headerProblems(field: string, name: string, value: unknown): string[] {
  const problems: string[] = [];
  if (typeof value !== 'string') problems.push(`${field}: header values must be strings`);
  else {
    const problem = headerValueProblem(value);
    if (problem) problems.push(`${field}: ${problem}`);
  }
  if (RESERVED_HEADERS.includes(name.toLowerCase()))
    problems.push(`${field}: ${name} is set by Switchyard and cannot be overridden`);
  if (!HEADER_NAME.test(name)) problems.push(`${field}: not a valid HTTP header name`);
  return problems;
}

/** The integrations key that names a destination (Segment documents it as the destination's name). */
export function destinationKey(destination: Destination): string {
  return destination.name ?? destination.type;
}

/** The outcome of checking plain input against a workspace class: the typed value, or every problem found. */
export type ResourceCheck<T> = { value: T; problems: [] } | { value?: undefined; problems: string[] };

/**
 * Checks plain input (a file's content or an API body) against a workspace class. Every problem
 * names its field; a field the class does not know is a problem too, because a misspelt
 * `sharedSecert` would otherwise be dropped and the destination would send unsigned requests.
 */
export function checkResource<T extends object>(
  cls: new () => T,
  plain: unknown,
  prefix = '',
): ResourceCheck<T> {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    return { problems: [`${prefix || 'body'}: must be an object`] };
  }
  const value = plainToInstance(cls, plain);
  const errors = validateSync(value, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
  });
  const problems = flattenValidationErrors(errors, prefix).map((e) => `${e.field}: ${e.reason}`);
  return problems.length > 0 ? { problems } : { value, problems: [] };
}

/** Checks a whole workspace (a file's content): each resource's fields, then the rules that span them. */
export function checkWorkspace(plain: unknown): ResourceCheck<WorkspaceConfig> {
  const check = checkResource(WorkspaceConfig, plain);
  if (!check.value) return check;
  const problems = crossFieldProblems(check.value);
  return problems.length > 0 ? { problems } : check;
}
