import { AudienceSynced, DeletionRequested, topicNames } from '@switchyard/contracts';
import { freshNamespace, TopicReader } from '../../../../test/support/kafka-test-kit';
import { RunningIngest, startTestIngest } from '../../test-support/ingest-harness';
import { simpleWorkspace } from '../../../../test/support/workspace-file';

jest.setTimeout(60_000);

const ADMIN_TOKEN = 'admin-token-for-tests-0001';
const computation = {
  class: 'audience',
  id: 'aud_1',
  name: 'High Value Users',
  spaceId: 'spa_1',
  sourceId: 'src-1',
};

describe('ingest admin endpoints: audience syncs and deletions (real broker)', () => {
  let ingest: RunningIngest;
  let reader: TopicReader<AudienceSynced | DeletionRequested>;
  let namespace: string;

  const post = (path: string, body: unknown, token: string | null = ADMIN_TOKEN, target = ingest) =>
    fetch(`${target.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });

  interface Answer {
    success: boolean;
    message?: string;
    requestId?: string;
    errors?: Array<{ field: string; reason: string }>;
  }
  const answer = async (res: Response) => (await res.json()) as Answer;

  beforeAll(async () => {
    namespace = freshNamespace('admin');
    ingest = await startTestIngest(namespace, simpleWorkspace(), { ADMIN_TOKEN });
    reader = await TopicReader.start([topicNames(namespace).audiences, topicNames(namespace).deletions]);
  });

  afterAll(async () => {
    await reader?.stop();
    await ingest?.close();
  });

  it('answers 401 without the admin token or with a wrong one', async () => {
    expect((await post('/admin/v1/deletions', { userIds: ['u'] }, null)).status).toBe(401);
    expect((await post('/admin/v1/audience-syncs', {}, 'wrong-token-wrong-token')).status).toBe(401);
  });

  it('answers 503 when no admin token is configured', async () => {
    const closed = await startTestIngest(freshNamespace('admin'), simpleWorkspace());
    try {
      const res = await post('/admin/v1/deletions', { userIds: ['u'] }, ADMIN_TOKEN, closed);
      expect(res.status).toBe(503);
    } finally {
      await closed.close();
    }
  });

  it('writes snapshot pages keyed by audience id, all on one partition, stamped on receipt', async () => {
    for (const [page, final] of [
      [1, false],
      [2, false],
      [3, true],
    ] as const) {
      const res = await post('/admin/v1/audience-syncs', {
        syncId: 'sync-1',
        computation,
        snapshot: { page, final, members: [{ userId: `u${page}` }] },
      });
      expect([res.status, await answer(res)]).toEqual([200, { success: true }]);
    }
    const pages = await reader.waitFor(3, (r) => r.topic === topicNames(namespace).audiences);
    expect(pages.map((r) => r.key)).toEqual(['aud_1', 'aud_1', 'aud_1']);
    expect(new Set(pages.map((r) => r.partition)).size).toBe(1);
    expect(pages.map((r) => (r.value as AudienceSynced).snapshot?.page)).toEqual([1, 2, 3]);
    expect((pages[0].value as AudienceSynced).receivedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('refuses invalid syncs with a reason per field', async () => {
    const res = await post('/admin/v1/audience-syncs', {
      syncId: 'sync-2',
      computation: { ...computation, sourceId: 'nope' },
      delta: { added: [], removed: [] },
    });
    expect(res.status).toBe(400);
    expect((await answer(res)).errors).toEqual([
      { field: 'computation.sourceId', reason: 'unknown source "nope"' },
    ]);
    const both = await post('/admin/v1/audience-syncs', {
      syncId: 's',
      computation,
      delta: { added: [], removed: [] },
      snapshot: { page: 1, final: true, members: [] },
    });
    expect((await answer(both)).errors).toEqual([
      { field: 'delta', reason: 'exactly one of snapshot or delta is required' },
    ]);
    const trait = await post('/admin/v1/audience-syncs', {
      syncId: 's',
      computation: { ...computation, class: 'computed_trait' },
      delta: { added: [{ userId: 'u' }], removed: [] },
    });
    expect((await answer(trait)).errors).toEqual([
      { field: 'delta.added.0.value', reason: 'a computed trait member needs a value (not null)' },
    ]);
  });

  it('accepts a deletion request and writes it with a request id', async () => {
    const res = await post('/admin/v1/deletions', { userIds: ['u-1', 'u-2'], sourceIds: ['src-1'] });
    const body = await answer(res);
    expect([res.status, body.success]).toEqual([200, true]);
    const [record] = await reader.waitFor(1, (r) => r.topic === topicNames(namespace).deletions);
    expect(record.value).toEqual({
      requestId: body.requestId,
      userIds: ['u-1', 'u-2'],
      sourceIds: ['src-1'],
      requestedAt: expect.any(String),
    });
    expect((await post('/admin/v1/deletions', { userIds: [] })).status).toBe(400);
    const unknown = await post('/admin/v1/deletions', { userIds: ['u'], sourceIds: ['src-1', 'nope'] });
    expect([unknown.status, (await answer(unknown)).errors]).toEqual([
      400,
      [{ field: 'sourceIds', reason: 'unknown sources: nope' }],
    ]);
  });
});
