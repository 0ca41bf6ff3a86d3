import { AudienceMembership, IncomingMember } from './audience-membership';

const users = (...ids: string[]): IncomingMember[] => ids.map((userId) => ({ userId, value: true }));
const changed = (outcome: { changes: Array<{ userId: string; value: unknown }> }) =>
  outcome.changes.map((c) => `${c.userId}=${String(c.value)}`);

describe('AudienceMembership', () => {
  it('announces every member of the first snapshot, then only the changes of the next', () => {
    const audience = new AudienceMembership();
    expect(changed(audience.applySnapshotPage('s1', 1, true, users('a', 'b', 'c'), false))).toEqual([
      'a=true',
      'b=true',
      'c=true',
    ]);
    expect(changed(audience.applySnapshotPage('s2', 1, true, users('b', 'c', 'd'), false))).toEqual([
      'd=true',
      'a=false',
    ]);
    expect(audience.size).toBe(3);
  });

  it('removes members absent from every page of a paged snapshot only on the final page', () => {
    const audience = new AudienceMembership();
    audience.applySnapshotPage('s1', 1, true, users('a', 'b', 'c'), false);
    expect(changed(audience.applySnapshotPage('s2', 1, false, users('a'), false))).toEqual([]);
    expect(changed(audience.applySnapshotPage('s2', 2, true, users('c'), false))).toEqual(['b=false']);
  });

  it('removes nobody when a snapshot ends with a page missing, and says so', () => {
    const audience = new AudienceMembership();
    audience.applySnapshotPage('s1', 1, true, users('a', 'b'), false);
    const outcome = audience.applySnapshotPage('s2', 2, true, users('a'), false);
    expect(changed(outcome)).toEqual([]);
    expect(outcome.warning).toContain('without pages 1');
  });

  it('announces nothing when the same page is applied twice (a replay)', () => {
    const audience = new AudienceMembership();
    audience.applySnapshotPage('s1', 1, false, users('a'), false);
    const again = audience.applySnapshotPage('s1', 1, false, users('a'), false);
    expect(again.changes).toEqual([]);
    expect(again.writes.filter((w) => w.kind === 'member')).toEqual([]);
  });

  it('applies explicit added and removed lists, ignoring no-op entries', () => {
    const audience = new AudienceMembership();
    audience.applyDelta('d1', users('a', 'b'), [], false);
    expect(changed(audience.applyDelta('d2', users('b', 'c'), ['a', 'nobody'], false))).toEqual([
      'c=true',
      'a=false',
    ]);
  });

  it('announces a computed trait when its value changes, and null when the user loses it', () => {
    const trait = new AudienceMembership();
    trait.applySnapshotPage(
      's1',
      1,
      true,
      [
        { userId: 'a', value: 3 },
        { userId: 'b', value: { tier: 'gold' } },
      ],
      null,
    );
    const next = trait.applySnapshotPage(
      's2',
      1,
      true,
      [
        { userId: 'b', value: { tier: 'gold' } },
        { userId: 'a', value: 4 },
      ],
      null,
    );
    expect(changed(next)).toEqual(['a=4']);
    expect(changed(trait.applySnapshotPage('s3', 1, true, [{ userId: 'a', value: 4 }], null))).toEqual([
      'b=null',
    ]);
  });

  it('restores from its own writes to the same state (the changelog round trip)', () => {
    const original = new AudienceMembership();
    const writes = [
      ...original.applySnapshotPage('s1', 1, true, users('a', 'b', 'c'), false).writes,
      ...original.applySnapshotPage('s2', 1, false, users('a'), false).writes,
    ];
    const restored = new AudienceMembership();
    writes.forEach((w) => restored.restore(w));
    // The snapshot in progress continues after the restore: page 2 finishes it and removes b.
    expect(changed(restored.applySnapshotPage('s2', 2, true, users('c'), false))).toEqual(['b=false']);
  });
});
