import { MAX_WEBHOOK_URLS, WEBHOOKS_DESTINATION_TYPE } from '@switchyard/config';
import type { RawInput } from '../api/query-params';

type Plain = Record<string, unknown>;

/** Header rows offered under each URL row; more when a stored URL has more headers. */
export const HEADER_ROWS = 3;
/** URL rows offered: as many as a destination may hold. */
export const URL_ROWS = MAX_WEBHOOK_URLS;

export interface HeaderRow {
  name: string;
  value: string;
}

export interface UrlRow {
  url: string;
  /** At least HEADER_ROWS long; empty rows are ignored. */
  headers: HeaderRow[];
}

/**
 * What the destination form shows and posts. Header values and the shared secret are secrets:
 * shown, they hold the API's masks; the shared secret's field is never filled in, and left empty
 * it keeps the stored secret.
 */
export interface DestinationForm {
  id: string;
  name: string;
  sources: string[];
  /** Always URL_ROWS long; empty rows are ignored. */
  urls: UrlRow[];
  /** What was typed into the shared secret's field, never rendered back. */
  sharedSecret: string;
  clearSharedSecret: boolean;
  enabled: boolean;
  /** The revision of the destination the form was opened on: sent as If-Match. */
  revision?: string;
}

/** The names of the form's controls: the pages render them, the parser reads them. */
export const field = {
  id: 'id',
  name: 'name',
  source: (sourceId: string) => `source.${sourceId}`,
  url: (row: number) => `webhook${row}.url`,
  headerName: (row: number, header: number) => `webhook${row}.header${header}.name`,
  headerValue: (row: number, header: number) => `webhook${row}.header${header}.value`,
  sharedSecret: 'sharedSecret',
  clearSharedSecret: 'clearSharedSecret',
  enabled: 'enabled',
  revision: 'revision',
} as const;

/** The element id of the control named `name`: `destination-` and the name, dots as dashes. */
export const controlId = (name: string) => `destination-${name.replace(/\./g, '-')}`;

const rows = <T>(count: number, row: (i: number) => T): T[] =>
  Array.from({ length: count }, (_, i) => row(i));

export function emptyDestinationForm(): DestinationForm {
  return {
    id: '',
    name: '',
    sources: [],
    urls: rows(URL_ROWS, () => ({ url: '', headers: rows(HEADER_ROWS, () => ({ name: '', value: '' })) })),
    sharedSecret: '',
    clearSharedSecret: false,
    enabled: true,
  };
}

/** The form as the page posted it. `knownSources` are the check boxes it offered. */
export function readDestinationForm(body: RawInput, knownSources: string[]): DestinationForm {
  const value = (name: string) => {
    const v = body?.[name];
    return typeof v === 'string' ? v : '';
  };
  const ticked = (name: string) => value(name) !== '';
  return {
    id: value(field.id).trim(),
    name: value(field.name).trim(),
    sources: knownSources.filter((id) => ticked(field.source(id))),
    urls: rows(URL_ROWS, (r) => ({
      url: value(field.url(r)).trim(),
      headers: rows(headerRowsPosted(body, r), (h) => ({
        name: value(field.headerName(r, h)).trim(),
        value: value(field.headerValue(r, h)),
      })),
    })),
    sharedSecret: value(field.sharedSecret),
    clearSharedSecret: ticked(field.clearSharedSecret),
    enabled: ticked(field.enabled),
    revision: value(field.revision) || undefined,
  };
}

/** The header rows of URL row `r` the form held: every one it renders posts its name, empty or not. */
function headerRowsPosted(body: RawInput, r: number): number {
  let count = 0;
  while (body?.[field.headerName(r, count)] !== undefined) count++;
  return Math.max(HEADER_ROWS, count);
}

/** The form of a destination as the API answers it (secrets masked), to edit it. */
export function destinationFormOf(resource: Plain, revision: number): DestinationForm {
  const settings = (resource.settings ?? {}) as { webhooks?: Array<{ url?: string; headers?: Plain }> };
  const webhooks = settings.webhooks ?? [];
  return {
    ...emptyDestinationForm(),
    id: String(resource.id ?? ''),
    name: typeof resource.name === 'string' ? resource.name : '',
    sources: Array.isArray(resource.sources) ? resource.sources.map(String) : [],
    urls: rows(URL_ROWS, (r) => {
      const headers = Object.entries(webhooks[r]?.headers ?? {});
      return {
        url: webhooks[r]?.url ?? '',
        headers: rows(Math.max(HEADER_ROWS, headers.length), (h) => ({
          name: headers[h]?.[0] ?? '',
          value: headers[h] ? String(headers[h][1]) : '',
        })),
      };
    }),
    enabled: resource.enabled === true,
    revision: String(revision),
  };
}

/** The result of reading a form into the management API's body; `problems` the form itself shows. */
export interface DestinationBody {
  body: Plain;
  problems: string[];
}

/**
 * The management API's destination body of a posted form. Empty URL and header rows are left out;
 * a header without a name or headers without a URL are problems, named by row as the page shows
 * them (from 1). `storedSecretMask` is the stored shared secret as the API masks it: sent back, it
 * keeps that secret when the field was left empty.
 */
export function destinationBody(form: DestinationForm, storedSecretMask?: string): DestinationBody {
  const problems: string[] = [];
  const webhooks: Plain[] = [];
  form.urls.forEach((row, r) => {
    const headers: Record<string, string> = {};
    row.headers.forEach((header, h) => {
      if (header.name === '' && header.value === '') return;
      if (header.name === '') problems.push(`URL ${r + 1}, header ${h + 1}: a header value needs a name`);
      else headers[header.name] = header.value;
    });
    const hasHeaders = Object.keys(headers).length > 0;
    if (row.url === '') {
      if (hasHeaders) problems.push(`URL ${r + 1}: headers need a URL`);
      return;
    }
    webhooks.push({ url: row.url, ...(hasHeaders ? { headers } : {}) });
  });
  const sharedSecret =
    form.sharedSecret !== '' ? form.sharedSecret : form.clearSharedSecret ? undefined : storedSecretMask;
  const body: Plain = {
    ...(form.id !== '' ? { id: form.id } : {}),
    type: WEBHOOKS_DESTINATION_TYPE,
    ...(form.name !== '' ? { name: form.name } : {}),
    enabled: form.enabled,
    sources: form.sources,
    settings: { ...(sharedSecret !== undefined ? { sharedSecret } : {}), webhooks },
  };
  return { body, problems };
}
