import type { CurrentResource, CurrentWorkspace, ResourceKind } from './plan';

type Plain = Record<string, unknown>;

const COLLECTIONS: Record<ResourceKind, 'sources' | 'destinations'> = {
  source: 'sources',
  destination: 'destinations',
};

/** A call the management API refused or that never reached it; the message says which and why. */
export class ConsoleApiError extends Error {
  constructor(
    message: string,
    /** Each rule the body broke, as the API named them (400). */
    readonly problems: string[] = [],
  ) {
    super(message);
  }
}

/** The calls `apply` makes to the console's management API. */
export interface WorkspaceApi {
  read(): Promise<CurrentWorkspace>;
  create(kind: ResourceKind, body: Plain): Promise<void>;
  replace(kind: ResourceKind, id: string, body: Plain, etag: string): Promise<void>;
  remove(kind: ResourceKind, id: string, etag: string): Promise<void>;
}

/** The management API over HTTP, authenticated with a bearer token. */
export class ConsoleClient implements WorkspaceApi {
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly token: string,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  /** Every source and destination, each read on its own so the ETag belongs to what was compared. */
  async read(): Promise<CurrentWorkspace> {
    const [sources, destinations] = await Promise.all([this.readAll('source'), this.readAll('destination')]);
    return { sources, destinations };
  }

  async create(kind: ResourceKind, body: Plain): Promise<void> {
    await this.call('POST', `/api/v1/${COLLECTIONS[kind]}`, { body });
  }

  async replace(kind: ResourceKind, id: string, body: Plain, etag: string): Promise<void> {
    await this.call('PUT', resourcePath(kind, id), { body, etag });
  }

  async remove(kind: ResourceKind, id: string, etag: string): Promise<void> {
    await this.call('DELETE', resourcePath(kind, id), { etag });
  }

  private async readAll(kind: ResourceKind): Promise<CurrentResource[]> {
    const collection = COLLECTIONS[kind];
    const listed = await this.call('GET', `/api/v1/${collection}`);
    const items = ((await listed.json()) as Record<string, Plain[]>)[collection] ?? [];
    return Promise.all(items.map((item) => this.readOne(kind, String(item.id))));
  }

  private async readOne(kind: ResourceKind, id: string): Promise<CurrentResource> {
    const response = await this.call('GET', resourcePath(kind, id));
    const etag = response.headers.get('etag');
    if (!etag) throw new ConsoleApiError(`GET ${resourcePath(kind, id)} answered without an ETag`);
    return { resource: (await response.json()) as Plain, etag };
  }

  private async call(method: string, path: string, options: { body?: Plain; etag?: string } = {}) {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (options.body) headers['content-type'] = 'application/json';
    if (options.etag) headers['if-match'] = options.etag;
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers,
        body: options.body && JSON.stringify(options.body),
      });
    } catch (error) {
      const cause = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
      throw new ConsoleApiError(`cannot reach the console at ${this.base}: ${cause}`);
    }
    if (!response.ok) throw await refusal(method, path, response);
    return response;
  }
}

const resourcePath = (kind: ResourceKind, id: string) =>
  `/api/v1/${COLLECTIONS[kind]}/${encodeURIComponent(id)}`;

/** The API's error answer (`{error, message, problems}`) as one error naming the call. */
async function refusal(method: string, path: string, response: Response): Promise<ConsoleApiError> {
  const text = await response.text();
  let answer: { error?: unknown; message?: unknown; problems?: unknown } = {};
  try {
    answer = JSON.parse(text);
  } catch {
    // Not the API's JSON (a proxy's page, say): the status alone is reported.
  }
  const reason = [answer.error, answer.message].filter((part) => typeof part === 'string').join(': ');
  const problems = Array.isArray(answer.problems) ? answer.problems.map(String) : [];
  return new ConsoleApiError(
    `${method} ${path} answered ${response.status}${reason ? ` ${reason}` : ''}`,
    problems,
  );
}
