import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepMaskedSecrets, mapDestinationSecrets, maskSecret } from '@switchyard/workspace';
import { EXIT, runWorkspaceCommand } from './workspace-command';

type Plain = Record<string, unknown>;
interface Seen {
  method: string;
  path: string;
  ifMatch?: string;
}

const TOKEN = 'admin-token-for-tests';
const SHARED_SECRET = 'whsec_shared_secret_from_file_0001';
const HEADER_VALUE = 'Bearer receiver-token-from-file-0002';

/**
 * The management API's contract as `apply` relies on it, in memory: resources with revisions as
 * ETags, If-Match checked, destination secrets answered masked and kept when sent back masked.
 */
class FakeConsole {
  readonly stored = { sources: new Map<string, Plain>(), destinations: new Map<string, Plain>() };
  readonly revisions = new Map<string, number>();
  readonly seen: Seen[] = [];
  /** Answers this status and body to the first request whose "METHOD path" matches. */
  refuse?: { request: string; status: number; answer: Plain };
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server!.closeAllConnections();
    return closed;
  }

  writes(): string[] {
    return this.seen
      .filter((s) => s.method !== 'GET')
      .map((s) => `${s.method} ${s.path} ${s.ifMatch ?? ''}`.trim());
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString()) as Plain) : {};
    const path = req.url!;
    this.seen.push({
      method: req.method!,
      path,
      ...(req.headers['if-match'] ? { ifMatch: req.headers['if-match'] } : {}),
    });
    const answer = (status: number, json?: Plain, etag?: number) => {
      res.writeHead(status, { 'content-type': 'application/json', ...(etag ? { etag: `"${etag}"` } : {}) });
      res.end(json ? JSON.stringify(json) : undefined);
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`)
      return answer(401, { success: false, error: 'unauthorized', message: 'send a token' });
    if (this.refuse?.request === `${req.method} ${path}`)
      return answer(this.refuse.status, this.refuse.answer);
    const [, , , collection, rawId] = path.split('/') as [
      string,
      string,
      string,
      'sources' | 'destinations',
      string?,
    ];
    const store = this.stored[collection];
    const id = rawId && decodeURIComponent(rawId);
    const key = `${collection}/${id ?? body.id}`;
    const view = (resource: Plain) =>
      collection === 'destinations' ? mapDestinationSecrets(resource, maskSecret) : resource;
    if (req.method === 'GET' && !id) return answer(200, { [collection]: [...store.values()].map(view) });
    if (req.method === 'POST') {
      const resource = collection === 'sources' ? { writeKey: `generated-${body.id}-key`, ...body } : body;
      store.set(String(body.id), resource);
      this.revisions.set(key, 1);
      return answer(201, view(resource), 1);
    }
    const current = store.get(id!);
    if (!current) return answer(404, { success: false, error: 'not_found', message: `no ${id}` });
    const revision = this.revisions.get(key)!;
    if (req.method === 'GET') return answer(200, view(current), revision);
    if (req.headers['if-match'] !== `"${revision}"`)
      return answer(412, { success: false, error: 'stale_revision', message: 'read it again' });
    if (req.method === 'DELETE') return (store.delete(id!), answer(204));
    const next = collection === 'destinations' ? keepMaskedSecrets(body, current) : body;
    store.set(id!, next);
    this.revisions.set(key, revision + 1);
    return answer(200, view(next), revision + 1);
  }
}

const destination = (id: string, sources: string[], extra: Plain = {}): Plain => ({
  id,
  type: 'Webhooks',
  enabled: true,
  sources,
  settings: {
    sharedSecret: SHARED_SECRET,
    webhooks: [{ url: `https://hooks.example.com/${id}`, headers: { Authorization: HEADER_VALUE } }],
  },
  ...extra,
});

describe('workspace apply', () => {
  let fake: FakeConsole;
  let url: string;
  let dir: string;
  let out: string;
  let err: string;

  const run = (...argv: string[]) =>
    runWorkspaceCommand(
      argv,
      { SWITCHYARD_CONSOLE_URL: url, SWITCHYARD_TOKEN: TOKEN },
      {
        out: (text) => (out += text),
        err: (text) => (err += text),
      },
    );
  const fileWith = async (workspace: Plain) => {
    const path = join(dir, `workspace-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(path, JSON.stringify(workspace));
    return path;
  };
  const seed = () => {
    fake.stored.sources.set('legacy', { id: 'legacy', name: 'Legacy', writeKey: 'legacy-write-key' });
    fake.stored.sources.set('web', { id: 'web', name: 'Website', writeKey: 'console-made-key-1' });
    fake.stored.destinations.set('legacy-hooks', destination('legacy-hooks', ['legacy', 'web']));
    for (const key of ['sources/legacy', 'sources/web', 'destinations/legacy-hooks'])
      fake.revisions.set(key, 2);
  };
  const file = {
    sources: [
      { id: 'web', name: 'Web' },
      { id: 'app', name: 'App', writeKey: 'app-write-key-0001' },
    ],
    destinations: [destination('hooks', ['web', 'app'])],
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'workspace-apply-'));
  });
  beforeEach(async () => {
    fake = new FakeConsole();
    url = await fake.start();
    out = '';
    err = '';
  });
  afterEach(() => fake.stop());

  it('prints the plan and changes nothing on a dry run', async () => {
    seed();
    expect(await run('apply', '-f', await fileWith(file), '--dry-run')).toBe(EXIT.ok);
    expect(out).toContain('Plan: 2 to create, 1 to update, 2 to delete, 0 unchanged.');
    expect(out).toContain('~ update source "web"\n    name: "Website" → "Web"\n');
    expect(out).toContain('Dry run: nothing was applied.');
    expect(fake.writes()).toEqual([]);
    for (const secret of [SHARED_SECRET, HEADER_VALUE, 'app-write-key-0001', 'console-made-key-1'])
      expect(out + err).not.toContain(secret);
  });

  it('applies the plan in order with the ETags it read, and then has nothing left to do', async () => {
    seed();
    const path = await fileWith(file);
    expect(await run('apply', '-f', path)).toBe(EXIT.ok);
    expect(fake.writes()).toEqual([
      'POST /api/v1/sources',
      'PUT /api/v1/sources/web "2"',
      'DELETE /api/v1/destinations/legacy-hooks "2"',
      'POST /api/v1/destinations',
      'DELETE /api/v1/sources/legacy "2"',
    ]);
    expect(out).toContain('Applied 5 change(s).');
    expect(fake.stored.sources.get('web')).toEqual({
      id: 'web',
      name: 'Web',
      writeKey: 'console-made-key-1',
    });
    expect(fake.stored.destinations.get('hooks')).toEqual(destination('hooks', ['web', 'app']));

    out = '';
    expect(await run('apply', '-f', path)).toBe(EXIT.ok);
    expect(out).toContain('Nothing to do');
    expect(out).toContain('destination "hooks" settings.sharedSecret');
    expect(fake.writes()).toHaveLength(5);
  });

  it('stops at the first refusal and says what was and was not applied', async () => {
    seed();
    fake.refuse = {
      request: 'POST /api/v1/destinations',
      status: 400,
      answer: {
        success: false,
        error: 'invalid',
        message: 'the body breaks 1 rule(s)',
        problems: ['settings: a rule'],
      },
    };
    expect(await run('apply', '-f', await fileWith(file))).toBe(EXIT.failed);
    expect(err).toBe(
      [
        'Failed: + create destination "hooks": POST /api/v1/destinations answered 400 invalid: the body breaks 1 rule(s)',
        '    settings: a rule',
        'Applied before the failure:',
        '    + create source "app"',
        '    ~ update source "web"',
        '    - delete destination "legacy-hooks"',
        'Not applied:',
        '    + create destination "hooks"',
        '    - delete source "legacy"',
        '',
      ].join('\n'),
    );
    expect(fake.writes()).not.toContain('DELETE /api/v1/sources/legacy "2"');
  });

  it('reports a change made by someone else between the read and the write', async () => {
    seed();
    fake.refuse = {
      request: 'PUT /api/v1/sources/web',
      status: 412,
      answer: { success: false, error: 'stale_revision', message: 'read it again and re-apply the change' },
    };
    expect(await run('apply', '-f', await fileWith(file))).toBe(EXIT.failed);
    expect(err).toContain('answered 412 stale_revision: read it again and re-apply the change');
  });

  it('applies nothing from a file that breaks a rule, naming the field', async () => {
    const misspelt = destination('hooks', ['web'], { enabeld: true });
    expect(
      await run(
        'apply',
        '-f',
        await fileWith({ sources: [{ id: 'web', name: 'Web' }], destinations: [misspelt] }),
      ),
    ).toBe(EXIT.failed);
    expect(err).toContain('enabeld');
    expect(fake.seen).toEqual([]);
  });

  it('fails clearly when the console refuses the token or cannot be reached', async () => {
    expect(await run('apply', '-f', await fileWith(file), '--token', 'wrong')).toBe(EXIT.failed);
    expect(err).toBe(
      'cannot read the workspace: GET /api/v1/sources answered 401 unauthorized: send a token\n',
    );
    const gone = new FakeConsole();
    const closed = await gone.start();
    await gone.stop();
    err = '';
    expect(await run('apply', '-f', await fileWith(file), '--url', closed)).toBe(EXIT.failed);
    expect(err).toMatch(
      /^cannot read the workspace: cannot reach the console at http:\/\/127\.0\.0\.1:\d+: /,
    );
  });

  it('answers a wrong command line with its usage', async () => {
    expect(await run('apply', '--dry-run')).toBe(EXIT.usage);
    expect(err).toContain('apply needs -f');
    expect(err).toContain('Usage: npm run workspace');
  });
});
