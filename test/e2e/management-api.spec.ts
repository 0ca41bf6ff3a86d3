import { topicNames, workspaceRecordKey } from '@switchyard/contracts';
import { eventually, TopicReader } from '../support/kafka-test-kit';
import { LocalKafka } from '../support/local-kafka';
import { ApiAnswer, ApiTokensFile, ManagementApi, topicModeEnv } from '../support/management-api';
import { freePort, ServiceProcess } from '../support/service-process';

type Plain = Record<string, unknown>;
interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
}
interface AuditChange extends Plain {
  action: string;
  kind: string;
  id: string;
  revision: number;
  actor: string;
}

const VIEWER_TOKEN = 'viewer-token-0123456789abcdef';
const WEB_WRITE_KEY = 'web-write-key-7d1c9e';
const HOOKS_SECRET = 'hooks-shared-secret-5b8e2a41';
const HOOKS_HEADER = 'Bearer hooks-header-value-c3f09d';
/** A source only these tests change: a write to it, once audited, shows every earlier write is audited too. */
const MARKER = 'marker';

const problemsOf = (answer: ApiAnswer) => answer.body.problems as string[];
const fieldsOf = (answer: ApiAnswer) => problemsOf(answer).map((p) => p.slice(0, p.indexOf(':')));
const hooks = (url: string) => ({
  id: 'hooks',
  name: 'Hooks',
  type: 'Webhooks',
  enabled: true,
  sources: ['web'],
  settings: { sharedSecret: HOOKS_SECRET, webhooks: [{ url, headers: { Authorization: HOOKS_HEADER } }] },
});

/**
 * The console's management API on a real workspace topic: every status of its table, secrets at
 * rest, and every operation of its OpenAPI document. Refused requests must leave the resources
 * and the audit trail exactly as they were.
 */
describe('the management API on a workspace topic', () => {
  jest.setTimeout(120_000);
  let consoleService: ServiceProcess;
  let tokens: ApiTokensFile;
  let env: NodeJS.ProcessEnv;
  let api: ManagementApi;
  let document: OpenApiDocument;
  let markerWrites = 0;

  beforeAll(async () => {
    tokens = new ApiTokensFile([{ name: 'support', role: 'viewer', token: VIEWER_TOKEN }]);
    // debug: the log check below is worth something only if the console logs all it can.
    env = { ...topicModeEnv('mgmt-api'), API_TOKENS_FILE: tokens.path, LOG_LEVEL: 'debug' };
    consoleService = await ServiceProcess.start('console', await freePort(), env);
    api = new ManagementApi(consoleService.url);
    document = (await (await fetch(`${consoleService.url}/api/v1/openapi.json`)).json()) as OpenApiDocument;
    for (const source of [
      { id: 'web', name: 'Web', writeKey: WEB_WRITE_KEY },
      { id: MARKER, name: 'Marker' },
    ])
      expect((await api.request('POST', '/sources', { body: source })).status).toBe(201);
    const created = await api.request('POST', '/destinations', { body: hooks('http://127.0.0.1:9/hooks') });
    expect(created.status).toBe(201);
  }, 180_000);

  afterAll(async () => {
    await consoleService?.stop();
    tokens?.remove();
  });

  /** Resolves once the audit trail holds every change accepted before the call. */
  async function settled(): Promise<void> {
    const answer = await api.request('PATCH', `/sources/${MARKER}`, {
      body: { name: `Marker ${++markerWrites}` },
    });
    expect(answer.status).toBe(200);
    const revision = Number(JSON.parse(answer.etag ?? '""'));
    await eventually(
      async () => {
        const { body } = await api.request<{ changes: AuditChange[] }>(
          'GET',
          `/audit?kind=source&id=${MARKER}&limit=1`,
        );
        return body.changes[0]?.revision === revision;
      },
      30_000,
      'the marker change in the audit trail',
    );
  }

  /** Every resource with its ETag, and the audit trail, as an admin reads them; the marker left out. */
  async function workspaceView() {
    const read = async (kind: 'sources' | 'destinations') => {
      const listed = (await api.request<Record<string, Plain[]>>('GET', `/${kind}`)).body[kind];
      const ids = listed.map((r) => String(r.id)).filter((id) => id !== MARKER);
      return Promise.all(
        ids.sort().map(async (id) => {
          const { etag, body } = await api.request('GET', `/${kind}/${id}`);
          return { etag, body };
        }),
      );
    };
    const audit = (await api.request<{ changes: AuditChange[] }>('GET', '/audit?limit=1000')).body.changes;
    return {
      sources: await read('sources'),
      destinations: await read('destinations'),
      audit: audit.filter((c) => c.id !== MARKER),
    };
  }

  /** Runs `refusals` and checks that nothing they sent was applied or audited. */
  async function expectNothingAppliedBy(refusals: () => Promise<void>): Promise<void> {
    await settled();
    const before = await workspaceView();
    await refusals();
    await settled();
    expect(await workspaceView()).toEqual(before);
  }

  it('creates, reads, replaces, updates, rotates the key of and deletes a source, auditing each change', async () => {
    const created = await api.request('POST', '/sources', { body: { id: 'app', name: 'App' } });
    expect(created.status).toBe(201);
    expect(created.etag).toBe('"1"');
    // A generated key holds at least 128 random bits: 22 base64url characters or more.
    const generated = String(created.body.writeKey);
    expect(generated).toMatch(/^sk_[A-Za-z0-9_-]{22,}$/);

    const listed = await api.request<{ sources: Plain[] }>('GET', '/sources');
    expect(listed.body.sources).toContainEqual({ id: 'app', name: 'App', writeKey: generated });
    expect((await api.request('GET', '/sources/app')).etag).toBe('"1"');

    const replaced = await api.request('PUT', '/sources/app', {
      body: { id: 'app', name: 'App (iOS)', writeKey: generated },
      ifMatch: '"1"',
    });
    expect([replaced.status, replaced.etag, replaced.body.name]).toEqual([200, '"2"', 'App (iOS)']);

    const updated = await api.request('PATCH', '/sources/app', {
      body: { allowedOrigins: ['https://shop.example.com'] },
      ifMatch: '"2"',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      id: 'app',
      name: 'App (iOS)',
      writeKey: generated,
      allowedOrigins: ['https://shop.example.com'],
    });

    const rotating = await api.request('POST', '/sources/app/write-keys', {
      body: { writeKey: 'app-next-write-key-01' },
      ifMatch: '"3"',
    });
    expect(rotating.status).toBe(200);
    expect([rotating.body.writeKey, rotating.body.previousWriteKey]).toEqual([
      'app-next-write-key-01',
      generated,
    ]);

    const retired = await api.request('DELETE', '/sources/app/previous-write-key', { ifMatch: '"4"' });
    expect(retired.status).toBe(200);
    expect(retired.body).not.toHaveProperty('previousWriteKey');

    expect((await api.request('DELETE', '/sources/app', { ifMatch: '"5"' })).status).toBe(204);
    expect((await api.request('GET', '/sources/app')).status).toBe(404);

    const changes = await eventually(async () => {
      const { body } = await api.request<{ changes: AuditChange[] }>('GET', '/audit?kind=source&id=app');
      return body.changes.length === 6 && body.changes;
    });
    expect(changes.map((c) => [c.action, c.revision, c.actor])).toEqual([
      ['delete', 5, 'admin'],
      ['update', 5, 'admin'],
      ['update', 4, 'admin'],
      ['update', 3, 'admin'],
      ['update', 2, 'admin'],
      ['create', 1, 'admin'],
    ]);
    // The audit keeps write keys masked: they let anyone send data as the source.
    expect(JSON.stringify(changes)).not.toContain(generated);
  });

  it('creates, reads, replaces, updates and deletes a destination; the audit filters by resource and time', async () => {
    const from = new Date().toISOString();
    const body = { ...hooks('http://127.0.0.1:9/crm'), id: 'crm', name: 'CRM' };
    const created = await api.request('POST', '/destinations', { body });
    expect([created.status, created.etag]).toEqual([201, '"1"']);

    const listed = await api.request<{ destinations: Plain[] }>('GET', '/destinations');
    expect(listed.body.destinations.map((d) => d.id)).toContain('crm');
    const read = await api.request('GET', '/destinations/crm');
    expect(read.etag).toBe('"1"');

    // Sending the masked secret back keeps the stored one: a client can PUT what it read.
    const replaced = await api.request('PUT', '/destinations/crm', {
      body: { ...read.body, name: 'CRM (EU)' },
      ifMatch: read.etag!,
    });
    expect([replaced.status, replaced.etag]).toEqual([200, '"2"']);
    expect(replaced.body.settings).toEqual(read.body.settings);

    const disabled = await api.request('PATCH', '/destinations/crm', {
      body: { enabled: false },
      ifMatch: '"2"',
    });
    expect([disabled.status, disabled.body.enabled, disabled.body.name]).toEqual([200, false, 'CRM (EU)']);

    expect((await api.request('DELETE', '/destinations/crm', { ifMatch: '"3"' })).status).toBe(204);
    expect((await api.request('GET', '/destinations/crm')).status).toBe(404);

    const to = new Date(Date.now() + 60_000).toISOString();
    const changes = await eventually(async () => {
      const { body: answer } = await api.request<{ changes: AuditChange[] }>(
        'GET',
        `/audit?kind=destination&id=crm&from=${from}&to=${to}`,
      );
      return answer.changes.length === 4 && answer.changes;
    });
    expect(changes.map((c) => c.action)).toEqual(['delete', 'update', 'update', 'create']);
    const later = await api.request<{ changes: AuditChange[] }>(
      'GET',
      `/audit?kind=destination&id=crm&from=${to}`,
    );
    expect(later.body.changes).toEqual([]);
  });

  it('400: lists every problem of a body, each naming its field, and refuses an unknown field by name', async () => {
    await expectNothingAppliedBy(async () => {
      const fields = await api.request('POST', '/destinations', {
        body: {
          ...hooks('ftp://files.example/drop'),
          id: 'broken',
          enabled: 'yes',
          settings: {
            sharedSecert: 'a-misspelt-secret',
            webhooks: [
              { url: 'ftp://files.example/drop' },
              ...[1, 2, 3, 4, 5].map((i) => ({ url: `https://hooks.example/${i}` })),
            ],
          },
        },
      });
      expect(fields.status).toBe(400);
      expect(fieldsOf(fields).sort()).toEqual([
        'enabled',
        'settings.sharedSecert',
        'settings.webhooks',
        'settings.webhooks[0].url',
      ]);

      const rules = await api.request('POST', '/destinations', {
        body: {
          ...hooks('https://hooks.example/a'),
          id: 'broken',
          sources: ['web', 'nowhere'],
          settings: {
            webhooks: [
              {
                url: 'https://hooks.example/a',
                headers: { 'X-Trace': 'a\r\nInjected: 1', 'User-Agent': 'mine' },
              },
            ],
          },
        },
      });
      expect(rules.status).toBe(400);
      expect(fieldsOf(rules).sort()).toEqual([
        'settings.webhooks[0].headers.User-Agent',
        'settings.webhooks[0].headers.X-Trace',
        'sources',
      ]);
      expect(problemsOf(rules).find((p) => p.startsWith('sources'))).toContain('nowhere');

      const both = await api.request('POST', '/destinations', {
        body: { ...hooks('https://hooks.example/a'), id: 'broken', enabled: 'yes', sources: ['nowhere'] },
      });
      expect([both.status, fieldsOf(both).sort()]).toEqual([400, ['enabled', 'sources']]);

      const typo = await api.request('PATCH', '/destinations/hooks', {
        body: { settings: { sharedSecert: 'x' } },
      });
      expect([typo.status, fieldsOf(typo)]).toEqual([400, ['settings.sharedSecert']]);

      const source = await api.request('POST', '/sources', {
        body: { id: 'bad id', name: '', writeKey: 'short' },
      });
      expect(source.status).toBe(400);
      expect(fieldsOf(source).sort()).toEqual(['id', 'name', 'writeKey']);
    });
  });

  it('401: refuses a missing or wrong token, for reads and writes', async () => {
    await expectNothingAppliedBy(async () => {
      for (const token of [null, 'not-a-token-of-this-console']) {
        expect((await api.request('GET', '/destinations', { token })).status).toBe(401);
        expect((await api.request('GET', '/sources/web', { token })).status).toBe(401);
        expect(
          (await api.request('POST', '/sources', { token, body: { id: 'intruder', name: 'I' } })).status,
        ).toBe(401);
        expect(
          (await api.request('PATCH', '/destinations/hooks', { token, body: { enabled: false } })).status,
        ).toBe(401);
      }
    });
  });

  it('403: a viewer may not write, and reads destinations and write keys masked', async () => {
    const token = VIEWER_TOKEN;
    await expectNothingAppliedBy(async () => {
      expect(
        (await api.request('POST', '/sources', { token, body: { id: 'viewers', name: 'V' } })).status,
      ).toBe(403);
      expect(
        (await api.request('PATCH', '/destinations/hooks', { token, body: { enabled: false } })).status,
      ).toBe(403);
      expect((await api.request('DELETE', '/destinations/hooks', { token })).status).toBe(403);
      expect((await api.request('POST', '/sources/web/write-keys', { token })).status).toBe(403);
    });

    const destination = await api.request<{ settings: { sharedSecret: string; webhooks: Plain[] } }>(
      'GET',
      '/destinations/hooks',
      { token },
    );
    expect(destination.status).toBe(200);
    expect(destination.body.settings.sharedSecret).toBe(`••••${HOOKS_SECRET.slice(-4)}`);
    expect(destination.body.settings.webhooks[0].headers).toEqual({
      Authorization: `••••${HOOKS_HEADER.slice(-4)}`,
    });
    const listed = await api.request('GET', '/destinations', { token });
    expect(JSON.stringify(listed.body)).not.toMatch(new RegExp(`${HOOKS_SECRET}|${HOOKS_HEADER}`));
    const source = await api.request('GET', '/sources/web', { token });
    expect([source.status, source.body.writeKey]).toEqual([200, `••••${WEB_WRITE_KEY.slice(-4)}`]);
    expect(JSON.stringify((await api.request('GET', '/sources', { token })).body)).not.toContain(
      WEB_WRITE_KEY,
    );
  });

  it('404: answers an unknown id, for every operation on one', async () => {
    await expectNothingAppliedBy(async () => {
      const calls: [string, string, object?][] = [
        ['GET', '/sources/nowhere'],
        ['PUT', '/sources/nowhere', { id: 'nowhere', name: 'N', writeKey: 'nowhere-key-1' }],
        ['PATCH', '/sources/nowhere', { name: 'N' }],
        ['DELETE', '/sources/nowhere'],
        ['POST', '/sources/nowhere/write-keys'],
        ['DELETE', '/sources/nowhere/previous-write-key'],
        ['GET', '/destinations/nowhere'],
        ['PUT', '/destinations/nowhere', { ...hooks('https://hooks.example/n'), id: 'nowhere' }],
        ['PATCH', '/destinations/nowhere', { enabled: false }],
        ['DELETE', '/destinations/nowhere'],
      ];
      for (const [method, path, body] of calls) {
        const answer = await api.request(method, path, { body });
        expect([method, path, answer.status, answer.body.error]).toEqual([method, path, 404, 'not_found']);
      }
    });
  });

  it('409: refuses a duplicate id, and changes that conflict with the workspace', async () => {
    await expectNothingAppliedBy(async () => {
      const source = await api.request('POST', '/sources', { body: { id: 'web', name: 'Web again' } });
      expect([source.status, source.body.error]).toEqual([409, 'conflict']);
      const destination = await api.request('POST', '/destinations', {
        body: hooks('https://hooks.example/dup'),
      });
      expect([destination.status, destination.body.error]).toEqual([409, 'conflict']);
      // A source a destination still uses, and a key rotation that is not under way.
      expect((await api.request('DELETE', '/sources/web')).status).toBe(409);
      expect((await api.request('DELETE', '/sources/web/previous-write-key')).status).toBe(409);
    });
  });

  it('412: a write with a stale If-Match loses to the one that read the same revision first', async () => {
    const read = await api.request('GET', '/destinations/hooks');
    const first = await api.request('PATCH', '/destinations/hooks', {
      body: { name: 'Hooks (first writer)' },
      ifMatch: read.etag!,
    });
    expect(first.status).toBe(200);
    await expectNothingAppliedBy(async () => {
      const stale = read.etag!;
      const patch = await api.request('PATCH', '/destinations/hooks', {
        body: { name: 'Second' },
        ifMatch: stale,
      });
      expect([patch.status, patch.body.error]).toEqual([412, 'stale_revision']);
      const put = await api.request('PUT', '/destinations/hooks', { body: read.body, ifMatch: stale });
      expect(put.status).toBe(412);
      expect((await api.request('DELETE', '/destinations/hooks', { ifMatch: stale })).status).toBe(412);
      const sourceEtag = (await api.request('GET', '/sources/web')).etag!;
      const staleSource = `"${Number(JSON.parse(sourceEtag)) + 7}"`;
      expect((await api.request('POST', '/sources/web/write-keys', { ifMatch: staleSource })).status).toBe(
        412,
      );
      expect((await api.request('DELETE', '/sources/web', { ifMatch: staleSource })).status).toBe(412);
    });
    expect((await api.request('GET', '/destinations/hooks')).body.name).toBe('Hooks (first writer)');
  });

  it('413: refuses a body over 1 MB', async () => {
    const huge = 'x'.repeat(1024 * 1024);
    await expectNothingAppliedBy(async () => {
      const create = await api.request('POST', '/sources', {
        rawBody: JSON.stringify({ id: 'huge', name: huge }),
      });
      expect(create.status).toBe(413);
      const patch = await api.request('PATCH', '/destinations/hooks', {
        rawBody: JSON.stringify({ name: huge }),
      });
      expect(patch.status).toBe(413);
    });
  });

  it('keeps shared secrets and header values out of the topics, the answers, the audit, the log and the metrics', async () => {
    const secrets = [
      'vault-shared-secret-91c2d7e4',
      'Bearer vault-header-value-08ab3f',
      'vault-next-secret-6e5d4c3b',
    ];
    const body = {
      ...hooks('https://hooks.example/vault'),
      id: 'vault',
      settings: {
        sharedSecret: secrets[0],
        webhooks: [{ url: 'https://hooks.example/vault', headers: { Authorization: secrets[1] } }],
      },
    };
    const answers: ApiAnswer[] = [await api.request('POST', '/destinations', { body })];
    // A second revision, so that the audit holds a before and an after with secrets in both.
    answers.push(
      await api.request('PATCH', '/destinations/vault', { body: { settings: { sharedSecret: secrets[2] } } }),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 200]);
    expect(answers[1].body.settings).toMatchObject({ sharedSecret: `••••${secrets[2].slice(-4)}` });
    answers.push(await api.request('GET', '/destinations/vault'), await api.request('GET', '/destinations'));
    await settled();
    answers.push(await api.request('GET', '/audit?kind=destination&id=vault'));
    expect((answers[4].body.changes as AuditChange[]).map((c) => c.action)).toEqual(['update', 'create']);

    const names = topicNames(env.TOPIC_NAMESPACE);
    const reader = await TopicReader.start([names.workspace, names.workspaceAudit]);
    try {
      const key = workspaceRecordKey('destination', 'vault');
      await reader.waitFor(2, (r) => r.topic === names.workspace && r.key === key);
      await reader.waitFor(2, (r) => r.topic === names.workspaceAudit && r.key === key);
      const raw = reader.records.map((r) => `${r.key} ${r.text} ${JSON.stringify(r.headers)}`).join('\n');
      const metrics = await (await fetch(`${consoleService.url}/metrics`)).text();
      const everywhere = [
        raw,
        ...answers.map((a) => JSON.stringify(a.body)),
        consoleService.tail(1_000_000),
        metrics,
      ];
      for (const secret of secrets) for (const text of everywhere) expect(text).not.toContain(secret);
    } finally {
      await reader.stop();
    }
  });

  describe('when the workspace topic cannot be written', () => {
    let broker: LocalKafka | undefined;
    let outageConsole: ServiceProcess | undefined;

    afterAll(async () => {
      await outageConsole?.stop();
      await broker?.stop();
      api.useConsole(consoleService.url);
    }, 60_000);

    it('503: answers that it cannot write, applies nothing, and audits nothing', async () => {
      // A broker of this test alone: the shared one is never stopped.
      broker = await LocalKafka.cluster(1);
      outageConsole = await ServiceProcess.start('console', await freePort(), {
        ...env,
        KAFKA_BROKERS: broker.brokers,
      });
      api.useConsole(outageConsole.url);
      expect((await api.request('POST', '/sources', { body: { id: 'web', name: 'Web' } })).status).toBe(201);
      const before = await api.request('GET', '/sources/web');

      await broker.kill(1);
      const patch = await api.request('PATCH', '/sources/web', { body: { name: 'Renamed' } });
      expect([patch.status, patch.body.error]).toEqual([503, 'unavailable']);
      // Refused because the console found no broker answering, not after waiting out its 30 s bound.
      expect(patch.body.message).toBe('the workspace topic cannot be written: no Kafka broker answers');
      const create = await api.request('POST', '/sources', { body: { id: 'mobile', name: 'Mobile' } });
      expect(create.status).toBe(503);
      // Nor does it hold a deletion request through the client's retries: nothing is sent.
      const deletion = await api.request('POST', '/deletions', { body: { userIds: ['u1'] } });
      expect([deletion.status, deletion.body.message]).toEqual([
        503,
        'the request could not be stored: no Kafka broker answers; retry later',
      ]);
      // Reads go on from the last workspace applied.
      const during = await api.request('GET', '/sources/web');
      expect([during.status, during.etag, during.body]).toEqual([200, before.etag, before.body]);

      await broker.restart();
      const after = await eventually(
        async () => {
          const answer = await api.request('PATCH', '/sources/web', { body: { name: 'Web, again' } });
          return answer.status === 200 && answer;
        },
        90_000,
        'a write once the broker is back',
      );
      // The refused changes left no revision behind: this one follows the first.
      expect(after.etag).toBe('"2"');
      expect((await api.request('GET', '/sources/mobile')).status).toBe(404);
      const changes = await eventually(async () => {
        const { body } = await api.request<{ changes: AuditChange[] }>('GET', '/audit');
        return body.changes.length >= 2 && body.changes;
      });
      expect(changes.map((c) => [c.action, c.id, c.revision])).toEqual([
        ['update', 'web', 2],
        ['create', 'web', 1],
      ]);
    }, 300_000);
  });

  it('serves the delivery tools under the same prefix and tokens: reads for a viewer, replay for an admin only', async () => {
    const reads = [
      ['GET', '/health/destinations', 200],
      ['GET', '/destinations/no-such-destination/attempts?limit=5', 404],
      ['GET', '/messages?messageId=no-such-message', 200],
      ['GET', '/dead-letters?limit=5', 200],
      ['GET', '/sources/no-such-source/calls', 404],
      ['GET', '/index', 200],
    ] as const;
    for (const [method, path, status] of reads)
      expect([path, (await api.request(method, path, { token: VIEWER_TOKEN })).status]).toEqual([
        path,
        status,
      ]);
    const replay = await api.request('POST', '/replay', { token: VIEWER_TOKEN, body: { messageId: 'x' } });
    expect(replay.status).toBe(403);
  });

  it('takes audience syncs and deletions of known sources from admins, onto the topics the router reads', async () => {
    const names = topicNames(env.TOPIC_NAMESPACE);
    const reader = await TopicReader.start([names.audiences, names.deletions]);
    try {
      const computation = {
        class: 'audience',
        id: 'aud_api',
        name: 'Buyers',
        spaceId: 'spa_1',
        sourceId: 'web',
      };
      const sync = { syncId: 'api-1', computation, delta: { added: [{ userId: 'u1' }], removed: [] } };
      const synced = await api.request('POST', '/audience-syncs', { body: sync });
      expect([synced.status, synced.body]).toEqual([200, { success: true }]);
      const deleted = await api.request('POST', '/deletions', {
        body: { userIds: ['u1'], sourceIds: ['web'] },
      });
      expect(deleted.status).toBe(200);
      const [audience] = await reader.waitFor(1, (r) => r.topic === names.audiences);
      expect([audience.key, audience.value]).toEqual([
        'aud_api',
        { ...sync, receivedAt: expect.any(String) },
      ]);
      const [deletion] = await reader.waitFor(1, (r) => r.topic === names.deletions);
      expect(deletion.key).toBe(deleted.body.requestId);

      const unknown = await api.request('POST', '/audience-syncs', {
        body: { ...sync, computation: { ...computation, sourceId: 'nowhere' } },
      });
      expect([unknown.status, problemsOf(unknown)]).toEqual([
        400,
        ['computation.sourceId: unknown source "nowhere"'],
      ]);
      const viewer = await api.request('POST', '/deletions', {
        token: VIEWER_TOKEN,
        body: { userIds: ['u2'] },
      });
      expect(viewer.status).toBe(403);
    } finally {
      await reader.stop();
    }
  });

  it('exercises every operation of its OpenAPI document', () => {
    expect(Object.keys(document.paths).length).toBeGreaterThan(0);
    expect(api.notCalled(document)).toEqual([]);
  });
});
