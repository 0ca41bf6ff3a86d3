import { AudienceSyncBody, Computation } from '@switchyard/contracts';
import { ReadRecord } from '../../../../test/support/kafka-test-kit';
import { DeliveryJob } from '@switchyard/contracts';
import { RouterHarness, source, webhooks } from '../../test-support/router-harness';

jest.setTimeout(120_000);

const audience: Computation = {
  class: 'audience',
  id: 'aud_1',
  name: 'High Value Users',
  spaceId: 'spa_1',
  sourceId: 'web',
};

function snapshot(
  syncId: string,
  page: number,
  final: boolean,
  userIds: string[],
  computation = audience,
): AudienceSyncBody {
  return { syncId, computation, snapshot: { page, final, members: userIds.map((userId) => ({ userId })) } };
}

function delta(syncId: string, added: string[], removed: string[] = []): AudienceSyncBody {
  return { syncId, computation: audience, delta: { added: added.map((userId) => ({ userId })), removed } };
}

const identifies = (r: ReadRecord<DeliveryJob>) => r.value.body?.type === 'identify';
/** `user=value` of the trait, for the jobs of one sync. */
const changesIn = (records: ReadRecord<DeliveryJob>[], trait = 'high_value_users') =>
  records
    .map(
      (r) =>
        `${String(r.value.body.userId)}=${String((r.value.body.traits as Record<string, unknown>)[trait])}`,
    )
    .sort();

// Both commit modes: membership changes and their identify calls commit together in either.
describe.each([false, true])(
  'router: audience syncs → identify calls (real Kafka, transactional: %p)',
  (transactional) => {
    let harness: RouterHarness | undefined;
    afterEach(async () => {
      await harness?.close();
      harness = undefined;
    });

    let sentinels = 0;
    /**
     * Sends the syncs, then a one-member sync of a sentinel audience on the same input partition,
     * and returns the identify jobs of the syncs once the sentinel's job and `expected` jobs are out.
     * The jobs land on several deliveries partitions, read in no set order, so the sentinel alone
     * does not prove the others are read; anything beyond `expected` read by then fails the caller's
     * exact comparison.
     */
    async function sync(
      bodies: AudienceSyncBody[],
      receivedAt: string,
      expected: number,
    ): Promise<ReadRecord<DeliveryJob>[]> {
      for (const body of bodies) await harness!.syncAudience(body, receivedAt, 0);
      sentinels += 1;
      const sentinel: Computation = { ...audience, id: 'sentinel', name: 'Sentinel' };
      await harness!.syncAudience(
        {
          syncId: `x${sentinels}`,
          computation: sentinel,
          delta: { added: [{ userId: `sentinel-${sentinels}` }], removed: [] },
        },
        receivedAt,
        0,
      );
      await harness!.outputs.waitFor(
        1,
        (r) => identifies(r) && r.value.body.userId === `sentinel-${sentinels}`,
      );
      const ofThisSync = (r: ReadRecord<DeliveryJob>) =>
        identifies(r) &&
        r.value.body.timestamp === receivedAt &&
        !String(r.value.body.userId).startsWith('sentinel-');
      await harness!.outputs.waitFor(expected, ofThisSync);
      return harness!.outputs.records.filter(ofThisSync);
    }

    it('sends every member first, then only changes; a full resync removes the absent; a restart re-sends nothing', async () => {
      harness = await RouterHarness.start(
        { sources: [source('web')], destinations: [webhooks('hooks', ['web'])] },
        { transactional },
      );

      // First sync of a new audience, in two pages: every member enters.
      const first = await sync(
        [snapshot('s1', 1, false, ['a', 'b']), snapshot('s1', 2, true, ['c'])],
        '2024-03-01T00:00:01.000Z',
        3,
      );
      expect(changesIn(first)).toEqual(['a=true', 'b=true', 'c=true']);
      expect(first[0].value.body).toMatchObject({
        version: 1,
        type: 'identify',
        context: {
          personas: {
            computation_class: 'audience',
            computation_id: 'aud_1',
            computation_key: 'high_value_users',
            space_id: 'spa_1',
          },
        },
      });
      expect(first.map((r) => r.key).sort()).toEqual(['hooks:web:a', 'hooks:web:b', 'hooks:web:c']);

      // A delta: only what it changes (b is already in).
      expect(changesIn(await sync([delta('d1', ['d', 'b'], ['a'])], '2024-03-01T00:00:02.000Z', 2))).toEqual([
        'a=false',
        'd=true',
      ]);

      // A full snapshot without c: c leaves, b and d are unchanged and not re-sent.
      expect(
        changesIn(await sync([snapshot('s2', 1, true, ['b', 'd'])], '2024-03-01T00:00:03.000Z', 1)),
      ).toEqual(['c=false']);
      const beforeRestart = harness.outputs.records.filter(identifies).length;

      // Restart: offsets are committed, and the state comes back from the changelog, so a snapshot
      // equal to the current membership announces nothing and one more member is the only change.
      await harness.restartRouter();
      expect(
        changesIn(await sync([snapshot('s3', 1, true, ['b', 'd', 'e'])], '2024-03-01T00:00:04.000Z', 1)),
      ).toEqual(['e=true']);
      // Nothing from before the restart came again: one new member and one new sentinel.
      expect(harness.outputs.records.filter(identifies)).toHaveLength(beforeRestart + 2);
    });

    it('syncs a computed trait with its value, a changed value, and null when a user loses it', async () => {
      harness = await RouterHarness.start(
        { sources: [source('web')], destinations: [webhooks('hooks', ['web'])] },
        { transactional },
      );
      const trait: Computation = {
        class: 'computed_trait',
        id: 'ct_1',
        name: 'Lifetime Value',
        spaceId: 'spa_1',
        sourceId: 'web',
      };
      const members = (values: Record<string, number>) =>
        Object.entries(values).map(([userId, value]) => ({ userId, value }));

      const first = await sync(
        [
          {
            syncId: 't1',
            computation: trait,
            snapshot: { page: 1, final: true, members: members({ a: 10, b: 20 }) },
          },
        ],
        '2024-03-02T00:00:01.000Z',
        2,
      );
      expect(changesIn(first, 'lifetime_value')).toEqual(['a=10', 'b=20']);
      expect(first[0].value.body.context).toMatchObject({
        personas: { computation_class: 'computed_trait', computation_key: 'lifetime_value' },
      });

      const next = await sync(
        [
          {
            syncId: 't2',
            computation: trait,
            snapshot: { page: 1, final: true, members: members({ a: 15 }) },
          },
        ],
        '2024-03-02T00:00:02.000Z',
        2,
      );
      expect(changesIn(next, 'lifetime_value')).toEqual(['a=15', 'b=null']);
    });

    it('routes the identify calls only to enabled destinations of the audience source', async () => {
      harness = await RouterHarness.start(
        {
          sources: [source('web'), source('ios')],
          destinations: [
            webhooks('hooks', ['web']),
            webhooks('ios-hooks', ['ios']),
            webhooks('off', ['web'], false),
          ],
        },
        { transactional },
      );
      const jobs = await sync([snapshot('s1', 1, true, ['a'])], '2024-03-03T00:00:01.000Z', 1);
      expect(jobs.map((r) => r.value.destinationId)).toEqual(['hooks']);
    });
  },
);
