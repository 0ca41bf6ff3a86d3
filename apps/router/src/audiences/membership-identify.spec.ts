import { membershipIdentify } from './membership-identify';

const sync = {
  syncId: 's-1',
  receivedAt: '2024-03-01T12:00:00.000Z',
  computation: {
    class: 'audience' as const,
    id: 'aud_1',
    name: 'High Value Users',
    spaceId: 'spa_1',
    sourceId: 'web',
  },
};

describe('membershipIdentify', () => {
  it('builds an identify with the snake_case trait and context.personas', () => {
    const call = membershipIdentify(sync, { userId: 'u-1', value: true });
    expect(call).toMatchObject({
      type: 'identify',
      userId: 'u-1',
      traits: { high_value_users: true },
      context: {
        personas: {
          computation_class: 'audience',
          computation_id: 'aud_1',
          computation_key: 'high_value_users',
          space_id: 'spa_1',
        },
      },
      timestamp: sync.receivedAt,
    });
  });

  it('derives the same messageId for the same change of the same sync, another for another change', () => {
    const id = membershipIdentify(sync, { userId: 'u-1', value: true }).messageId;
    expect(membershipIdentify(sync, { userId: 'u-1', value: true }).messageId).toBe(id);
    expect(membershipIdentify(sync, { userId: 'u-1', value: false }).messageId).not.toBe(id);
    expect(membershipIdentify({ ...sync, syncId: 's-2' }, { userId: 'u-1', value: true }).messageId).not.toBe(
      id,
    );
  });

  it('labels computed traits and carries their value', () => {
    const trait = {
      ...sync,
      computation: { ...sync.computation, class: 'computed_trait' as const, name: 'Lifetime Value' },
    };
    expect(membershipIdentify(trait, { userId: 'u-1', value: 420 })).toMatchObject({
      traits: { lifetime_value: 420 },
      context: { personas: { computation_class: 'computed_trait', computation_key: 'lifetime_value' } },
    });
  });

  it("sends a computation's traitKey exactly as given, in place of the name's snake_case form", () => {
    const pinned = {
      ...sync,
      computation: { ...sync.computation, name: 'iOS 14 Users', traitKey: 'i_os_14_users' },
    };
    expect(membershipIdentify(pinned, { userId: 'u-1', value: true })).toMatchObject({
      traits: { i_os_14_users: true },
      context: { personas: { computation_key: 'i_os_14_users' } },
    });
    expect(
      membershipIdentify(
        { ...pinned, computation: { ...sync.computation, name: 'iOS 14 Users' } },
        { userId: 'u-1', value: true },
      ).traits,
    ).toEqual({ ios_14_users: true });
  });
});
