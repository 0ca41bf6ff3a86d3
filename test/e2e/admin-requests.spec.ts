import { AudienceSynced, DeletionRequested, topicNames } from '@switchyard/contracts';
import { freshNamespace, ReadRecord, TopicReader } from '../support/kafka-test-kit';
import { ApiTokensFile, TEST_ADMIN_TOKEN } from '../support/management-api';
import { testServiceEnv } from '../support/service-env';
import { freePort, ServiceProcess } from '../support/service-process';
import { simpleWorkspace, WorkspaceFile } from '../support/workspace-file';

const VIEWER_TOKEN = 'viewer-token-for-admin-requests';

const computation = (id: string) => ({
  class: 'computed_trait',
  id,
  name: 'Lifetime Value',
  spaceId: 'spa_1',
  sourceId: 'src-1',
});

/** What the router reads of a record: everything but the receipt stamp and request id each endpoint makes. */
const asRouted = ({ key, partition, value }: ReadRecord<AudienceSynced | DeletionRequested>) => {
  const { receivedAt, requestedAt, requestId, ...rest } = value as Partial<
    AudienceSynced & DeletionRequested
  >;
  const stamped = [receivedAt, requestedAt].filter((at) => at !== undefined);
  expect(stamped.map((at) => !Number.isNaN(Date.parse(at)))).toEqual([true]);
  return { key: key === requestId ? 'the request id' : key, partition, value: rest };
};

/**
 * Audience syncs and deletions moved from ingest's `/admin/v1` to the management API: the same
 * request through either path must leave the same records on the topics the router reads, and the
 * console must answer with the management API's token model.
 */
describe('audience syncs and deletions, through /api/v1 and the /admin/v1 alias', () => {
  jest.setTimeout(120_000);
  const namespace = freshNamespace('admin-requests');
  const topics = topicNames(namespace);
  const workspace = new WorkspaceFile(simpleWorkspace());
  const tokens = new ApiTokensFile([{ name: 'support', role: 'viewer', token: VIEWER_TOKEN }]);
  let ingest: ServiceProcess;
  let consoleService: ServiceProcess;
  let reader: TopicReader<AudienceSynced | DeletionRequested>;

  const post = (base: string, path: string, body: unknown, token: string | null = TEST_ADMIN_TOKEN) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const viaApi = (path: string, body: unknown, token?: string | null) =>
    post(consoleService.url, `/api/v1${path}`, body, token);
  const viaAlias = (path: string, body: unknown) => post(ingest.url, `/admin/v1${path}`, body);

  beforeAll(async () => {
    const env = {
      ...testServiceEnv(namespace, workspace.path),
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      API_TOKENS_FILE: tokens.path,
    };
    [ingest, consoleService] = await Promise.all([
      freePort().then((port) => ServiceProcess.start('ingest', port, env)),
      freePort().then((port) => ServiceProcess.start('console', port, env)),
    ]);
    reader = await TopicReader.start([topics.audiences, topics.deletions]);
  }, 120_000);

  afterAll(async () => {
    await reader?.stop();
    await Promise.all([ingest?.stop(), consoleService?.stop()]);
    workspace.remove();
    tokens.remove();
  });

  it('writes the same audience sync pages through either path, keyed by the audience', async () => {
    const pages = (syncId: string) =>
      [1, 2].map((page) => ({
        syncId,
        computation: computation('ltv'),
        snapshot: { page, final: page === 2, members: [{ userId: `u${page}`, value: page * 100 }] },
      }));
    for (const page of pages('through-api')) {
      const res = await viaApi('/audience-syncs', page);
      expect([res.status, await res.json()]).toEqual([200, { success: true }]);
    }
    for (const page of pages('through-alias'))
      expect((await viaAlias('/audience-syncs', page)).status).toBe(200);

    const written = async (syncId: string) => {
      const records = await reader.waitFor(
        2,
        (r) => r.topic === topics.audiences && (r.value as AudienceSynced).syncId === syncId,
      );
      return records.map(asRouted).map((r) => ({ ...r, value: { ...r.value, syncId: 'either' } }));
    };
    const [api, alias] = [await written('through-api'), await written('through-alias')];
    expect(api).toEqual(alias);
    expect(api.map((r) => r.value)).toEqual(pages('either'));
    expect(api.map((r) => r.key)).toEqual(['ltv', 'ltv']);
  });

  it('writes the same deletion request through either path, answered with its request id', async () => {
    const body = { userIds: ['u-1', 'u-2'], sourceIds: ['src-1'] };
    const answers = [await viaApi('/deletions', body), await viaAlias('/deletions', body)];
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const ids = await Promise.all(
      answers.map(async (a) => ((await a.json()) as { requestId: string }).requestId),
    );
    const records = await Promise.all(
      ids.map(async (id) => {
        const [record] = await reader.waitFor(1, (r) => r.topic === topics.deletions && r.key === id);
        expect((record.value as DeletionRequested).requestId).toBe(id);
        return asRouted(record);
      }),
    );
    expect(records[0]).toEqual(records[1]);
    expect(records[0].value).toEqual(body);
  });

  it('refuses what the alias refuses, by the same rules, listing each problem with its field', async () => {
    const unknownSource = {
      syncId: 's',
      computation: { ...computation('x'), sourceId: 'nope' },
      delta: { added: [], removed: [] },
    };
    const traitWithoutValue = {
      syncId: 's',
      computation: computation('x'),
      delta: { added: [{ userId: 'u' }], removed: [] },
    };
    const cases: [string, unknown, string[]][] = [
      ['/audience-syncs', unknownSource, ['computation.sourceId: unknown source "nope"']],
      [
        '/audience-syncs',
        traitWithoutValue,
        ['delta.added.0.value: a computed trait member needs a value (not null)'],
      ],
      ['/deletions', { userIds: [] }, ['userIds: userIds must name at least one user']],
      ['/deletions', { userIds: ['u'], sourceIds: ['src-1', 'nope'] }, ['sourceIds: unknown sources: nope']],
    ];
    for (const [path, body, problems] of cases) {
      const [api, alias] = [await viaApi(path, body), await viaAlias(path, body)];
      expect([path, api.status, alias.status]).toEqual([path, 400, 400]);
      const refusal = (await api.json()) as { error: string; problems: string[] };
      expect([refusal.error, refusal.problems]).toEqual(['invalid', problems]);
      const aliasErrors = ((await alias.json()) as { errors: { field: string; reason: string }[] }).errors;
      expect(aliasErrors.map((e) => `${e.field}: ${e.reason}`)).toEqual(problems);
    }
  });

  it('takes them from admin tokens only: a viewer gets 403, no token or a wrong one 401, and nothing is written', async () => {
    const sync = {
      syncId: 's',
      computation: computation('refused'),
      delta: { added: [{ userId: 'u', value: 1 }], removed: [] },
    };
    const deletion = { userIds: ['refused-user'] };
    for (const [token, status] of [
      [VIEWER_TOKEN, 403],
      [null, 401],
      ['not-a-token-of-this-console', 401],
    ] as const) {
      expect([token, (await viaApi('/audience-syncs', sync, token)).status]).toEqual([token, status]);
      expect([token, (await viaApi('/deletions', deletion, token)).status]).toEqual([token, status]);
    }
    // An accepted request written after the refused ones shows that they left nothing behind.
    const marker = await viaApi('/deletions', { userIds: ['marker-user'] });
    const { requestId } = (await marker.json()) as { requestId: string };
    await reader.waitFor(1, (r) => r.key === requestId);
    const refused = reader.records.filter(
      (r) => r.key === 'refused' || JSON.stringify(r.value).includes('refused-user'),
    );
    expect(refused).toEqual([]);
  });
});
