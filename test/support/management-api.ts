import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freshNamespace, testBrokers } from './kafka-test-kit';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

/**
 * What services need to follow the workspace topic rather than a file: no WORKSPACE_CONFIG, a
 * namespace of their own (so an empty workspace topic), an admin token for the console, and an
 * encryption key of their own for the secrets in the topic.
 */
export function topicModeEnv(label: string): NodeJS.ProcessEnv {
  return {
    KAFKA_BROKERS: testBrokers(),
    TOPIC_NAMESPACE: freshNamespace(label),
    TOPIC_PARTITIONS: '2',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    WORKSPACE_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    DELIVERY_RETRY_SCHEDULE_MS: '100,200',
  };
}

/** A file of named tokens (API_TOKENS_FILE) holding only their hashes, as a Kubernetes Secret would. */
export class ApiTokensFile {
  readonly path: string;

  constructor(tokens: { name: string; role: 'admin' | 'viewer'; token: string }[]) {
    this.path = join(mkdtempSync(join(tmpdir(), 'switchyard-tokens-')), 'tokens');
    const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
    writeFileSync(this.path, tokens.map((t) => `${t.name} ${t.role} sha256:${sha256(t.token)}\n`).join(''));
  }

  remove = (): void => rmSync(dirname(this.path), { recursive: true, force: true });
}

export interface ApiAnswer<T = Record<string, unknown>> {
  status: number;
  etag: string | null;
  body: T;
}

export interface ApiRequest {
  body?: unknown;
  /** Sent as is, for bodies that are not JSON values (or too large to build as one). */
  rawBody?: string;
  /** The bearer token; admin's unless given, none when null. */
  token?: string | null;
  ifMatch?: string;
}

/** A `METHOD path` the tests called, without the query. */
type Call = string;

/**
 * A client of the console's management API that remembers every method and path it called, so
 * a test can check that the suite exercised each operation of the OpenAPI document.
 */
export class ManagementApi {
  private readonly called = new Set<Call>();

  constructor(private baseUrl: string) {}

  /** Points the client at another console: the calls made so far still count. */
  useConsole(baseUrl: string): void {
    this.baseUrl = baseUrl;
  }

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    { body, rawBody, token = TEST_ADMIN_TOKEN, ifMatch }: ApiRequest = {},
  ): Promise<ApiAnswer<T>> {
    this.called.add(`${method} /api/v1${path.split('?')[0]}`);
    const headers: Record<string, string> = {};
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (ifMatch !== undefined) headers['if-match'] = ifMatch;
    const payload = rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}/api/v1${path}`, { method, headers, body: payload });
    const text = await response.text();
    return {
      status: response.status,
      etag: response.headers.get('etag'),
      body: (text ? JSON.parse(text) : {}) as T,
    };
  }

  /** The operations of an OpenAPI document (`GET /api/v1/sources/{id}`) that no call of this client matched. */
  notCalled(document: { paths: Record<string, Record<string, unknown>> }): string[] {
    const calls = [...this.called];
    const missing: string[] = [];
    for (const [template, operations] of Object.entries(document.paths)) {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const method of Object.keys(operations).map((m) => m.toUpperCase())) {
        const matches = (call: Call) => {
          const [calledMethod, path] = call.split(' ');
          return calledMethod === method && pattern.test(path);
        };
        if (!calls.some(matches)) missing.push(`${method} ${template}`);
      }
    }
    return missing;
  }
}
