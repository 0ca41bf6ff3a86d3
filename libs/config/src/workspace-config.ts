import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  ValidateNested,
} from 'class-validator';

import { headerValueProblem } from './header-value';

export const WEBHOOKS_DESTINATION_TYPE = 'Webhooks';
export const MAX_WEBHOOK_URLS = 5;

/** Headers Switchyard sets itself; a static header may not replace them. */
const RESERVED_HEADERS = [
  'content-type',
  'content-length',
  'user-agent',
  'x-signature',
  'host',
  'transfer-encoding',
  'connection',
];

/** A browser origin (scheme, host, optional port), the host optionally starting with `*.`. */
const ORIGIN_PATTERN = /^https?:\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$/;

export class Source {
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]{1,128}$/, {
    message: 'id may hold letters, digits, dot, dash and underscore (1-128)',
  })
  id!: string;

  @IsString()
  @IsNotEmpty()
  name!: string;

  @IsString()
  @Matches(/^\S{8,256}$/, { message: 'writeKey must be 8-256 characters without spaces' })
  writeKey!: string;

  /**
   * Browser origins whose pages may send this source's calls (`https://shop.example.com`, or
   * `https://*.example.com` for its subdomains). Unset: any origin, as Segment allows.
   */
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

  @IsOptional()
  @IsObject()
  headers?: Record<string, string>;
}

export class WebhooksSettings {
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'sharedSecret, when set, must not be empty' })
  sharedSecret?: string;

  @IsArray()
  @ArrayMinSize(1, { message: 'webhooks must list at least one URL' })
  @ArrayMaxSize(MAX_WEBHOOK_URLS, { message: `webhooks may list at most ${MAX_WEBHOOK_URLS} URLs` })
  @ValidateNested({ each: true })
  @Type(() => WebhookTarget)
  webhooks!: WebhookTarget[];
}

export class Destination {
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]{1,128}$/, {
    message: 'id may hold letters, digits, dot, dash and underscore (1-128)',
  })
  id!: string;

  @IsIn([WEBHOOKS_DESTINATION_TYPE], { message: `type must be "${WEBHOOKS_DESTINATION_TYPE}"` })
  type!: typeof WEBHOOKS_DESTINATION_TYPE;

  /** The integrations key that names this destination in a call; the type's name by default. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  name?: string;

  @IsBoolean({ message: 'enabled must be true or false' })
  enabled!: boolean;

  @IsArray()
  @IsString({ each: true })
  sources!: string[];

  @ValidateNested()
  @Type(() => WebhooksSettings)
  settings!: WebhooksSettings;
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
  if (duplicates(config.sources.map((s) => s.writeKey)).length > 0)
    problems.push('sources: a writeKey is used by two sources');
  for (const id of duplicates(config.destinations.map((d) => d.id)))
    problems.push(`destinations: id "${id}" is used twice`);
  const sourceIds = new Set(config.sources.map((s) => s.id));
  config.destinations.forEach((d, i) => {
    for (const s of d.sources) {
      if (!sourceIds.has(s)) problems.push(`destinations[${i}].sources: unknown source "${s}"`);
    }
    d.settings.webhooks.forEach((w, j) => {
      for (const [name, value] of Object.entries(w.headers ?? {})) {
        const field = `destinations[${i}].settings.webhooks[${j}].headers.${name}`;
        if (typeof value !== 'string') problems.push(`${field}: header values must be strings`);
        else {
          const problem = headerValueProblem(value);
          if (problem) problems.push(`${field}: ${problem}`);
        }
        if (RESERVED_HEADERS.includes(name.toLowerCase()))
          problems.push(`${field}: ${name} is set by Switchyard and cannot be overridden`);
        if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
          problems.push(`${field}: not a valid HTTP header name`);
      }
    });
  });
  return problems;
}

/** The integrations key that names a destination (Segment documents it as the destination's name). */
export function destinationKey(destination: Destination): string {
  return destination.name ?? destination.type;
}
