import { validateAudienceSyncBody } from './audience-sync';

const body = (computation: object) => ({
  syncId: 's-1',
  computation: {
    class: 'audience',
    id: 'aud_1',
    name: 'iOS 14 Users',
    spaceId: 'spa_1',
    sourceId: 'web',
    ...computation,
  },
  delta: { added: [{ userId: 'u1' }], removed: [] },
});

describe('computation.traitKey', () => {
  it.each([
    ['an old key', 'i_os_14_users'],
    ['accented letters', 'straße_øst'],
  ])('accepts %s', (_name, traitKey) => {
    expect(validateAudienceSyncBody(body({ traitKey }))).toEqual([]);
  });

  it.each([
    ['spaces', 'ios users', /letters, digits and underscores/],
    ['an empty key', '', /letters, digits and underscores/],
    ['a non-string', 5, /letters, digits and underscores/],
    ['__proto__', '__proto__', /may not be __proto__/],
  ])('refuses %s with the field named', (_name, traitKey, reason) => {
    const problems = validateAudienceSyncBody(body({ traitKey }));
    expect(problems.map((p) => p.field)).toContain('computation.traitKey');
    expect(problems.map((p) => p.reason).join(' ')).toMatch(reason);
  });
});
