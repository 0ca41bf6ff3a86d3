import { HttpException } from '@nestjs/common';
import { topicNames } from '@switchyard/contracts';
import { BrokersAwayError, type OutgoingRecord } from '@switchyard/kafka';
import { createLogger } from '@switchyard/telemetry';
import { AdminRequests } from './admin-requests';

const topics = topicNames('unit');
const sources = { source: (id: string) => (id === 'web' ? { id } : undefined) };
const logger = createLogger('admin-requests-test', 'silent');
const computation = { class: 'audience', id: 'aud_1', name: 'Buyers', spaceId: 'spa_1', sourceId: 'web' };

function requests(send: (records: OutgoingRecord[]) => Promise<void> = () => Promise.resolve()) {
  const sent: OutgoingRecord[] = [];
  const admin = new AdminRequests(
    { send: (records) => (sent.push(...records), send(records)) },
    topics,
    sources,
    logger,
  );
  return { admin, sent };
}

describe('AdminRequests', () => {
  it('names the field of a source the workspace lacks, once the body keeps the rules', () => {
    const { admin } = requests();
    const sync = { syncId: 's', computation, delta: { added: [], removed: [] } };
    expect(admin.audienceSyncProblems(sync)).toEqual([]);
    expect(admin.audienceSyncProblems({ ...sync, computation: { ...computation, sourceId: 'app' } })).toEqual(
      [{ field: 'computation.sourceId', reason: 'unknown source "app"' }],
    );
    expect(admin.audienceSyncProblems({ ...sync, syncId: 'a b' }).map((p) => p.field)).toEqual(['syncId']);
    expect(admin.deletionProblems({ userIds: ['u'], sourceIds: ['web', 'app', 'ios'] })).toEqual([
      { field: 'sourceIds', reason: 'unknown sources: app, ios' },
    ]);
    expect(admin.deletionProblems({ userIds: ['u'] })).toEqual([]);
  });

  it('writes a sync keyed by its audience and a deletion keyed by a fresh request id, stamped on receipt', async () => {
    const { admin, sent } = requests();
    const now = new Date('2026-11-22T10:00:00.000Z');
    const sync = { syncId: 's', computation, snapshot: { page: 1, final: true, members: [] } };
    await admin.acceptAudienceSync(sync as never, now);
    const request = await admin.requestDeletion({ userIds: ['u'] }, now);
    expect(sent.map((r) => [r.topic, r.key])).toEqual([
      [topics.audiences, 'aud_1'],
      [topics.deletions, request.requestId],
    ]);
    expect(JSON.parse(String(sent[0].value))).toEqual({ ...sync, receivedAt: now.toISOString() });
    expect(JSON.parse(String(sent[1].value))).toEqual({
      requestId: request.requestId,
      userIds: ['u'],
      requestedAt: now.toISOString(),
    });
  });

  it('answers 503 when Kafka does not acknowledge', async () => {
    const { admin } = requests(() => Promise.reject(new Error('broker away')));
    const refusal = await admin.requestDeletion({ userIds: ['u'] }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(HttpException);
    expect((refusal as HttpException).getStatus()).toBe(503);
    expect((refusal as HttpException).getResponse()).toMatchObject({
      error: 'unavailable',
      message: 'the request could not be stored; retry later',
    });
  });

  it('says so when the request was refused because no broker answers', async () => {
    const { admin } = requests(() => Promise.reject(new BrokersAwayError()));
    const refusal = await admin.requestDeletion({ userIds: ['u'] }).catch((error: unknown) => error);
    expect((refusal as HttpException).getResponse()).toMatchObject({
      error: 'unavailable',
      message: 'the request could not be stored: no Kafka broker answers; retry later',
    });
  });
});
