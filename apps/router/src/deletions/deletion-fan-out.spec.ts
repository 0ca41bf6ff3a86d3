import { Destination } from '@switchyard/config';
import { deleteNotifications, SourceDirectory } from './deletion-fan-out';

const hook = (id: string, sources: string[], enabled = true) =>
  ({ id, type: 'Webhooks', enabled, sources, settings: { webhooks: [] } }) as unknown as Destination;

function workspace(destinations: Destination[]): SourceDirectory {
  return {
    config: { sources: [{ id: 'web' }, { id: 'ios' }, { id: 'backend' }] },
    destinationsOf: (sourceId) => destinations.filter((d) => d.sources.includes(sourceId)),
  };
}

const request = { requestId: 'r-1', userIds: ['u-1', 'u-2', 'u-1'], requestedAt: '2024-03-01T12:00:00Z' };

describe('deleteNotifications', () => {
  it('sends one notification per user and source that has an enabled Webhooks destination', () => {
    const notes = deleteNotifications(
      request,
      workspace([hook('a', ['web', 'ios']), hook('off', ['backend'], false)]),
    );
    expect(
      notes.map((n) => [n.message.sourceId, n.message.userKey, n.destinations.map((d) => d.id)]),
    ).toEqual([
      ['web', 'u-1', ['a']],
      ['web', 'u-2', ['a']],
      ['ios', 'u-1', ['a']],
      ['ios', 'u-2', ['a']],
    ]);
    expect(notes[0].message.body).toEqual({
      type: 'delete',
      userId: 'u-1',
      timestamp: '2024-03-01T12:00:00.000Z',
      messageId: notes[0].message.messageId,
    });
  });

  it('limits the fan-out to the sources named, ignoring unknown ones', () => {
    const notes = deleteNotifications(
      { ...request, sourceIds: ['ios', 'nope'] },
      workspace([hook('a', ['web', 'ios'])]),
    );
    expect(new Set(notes.map((n) => n.message.sourceId))).toEqual(new Set(['ios']));
  });

  it('gives a replayed request the same message ids, distinct per source and user', () => {
    const ws = workspace([hook('a', ['web', 'ios'])]);
    const ids = deleteNotifications(request, ws).map((n) => n.message.messageId);
    expect(deleteNotifications(request, ws).map((n) => n.message.messageId)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
