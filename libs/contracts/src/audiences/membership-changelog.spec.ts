import { decodeMembershipChange, encodeMembershipChange, StateWrite } from './membership-changelog';

describe('membership changelog', () => {
  it.each<[string, StateWrite]>([
    ['a member', { kind: 'member', userId: 'user:with:colons', record: { value: 420, syncId: 's-1' } }],
    ['a member tombstone', { kind: 'member', userId: 'u1', record: null }],
    ['snapshot progress', { kind: 'progress', progress: { syncId: 's-2', pages: [1, 2, 4] } }],
    ['a progress tombstone', { kind: 'progress', progress: null }],
  ])('round-trips %s', (_name, write) => {
    const { key, value } = encodeMembershipChange('aud_1', write);
    expect(decodeMembershipChange(key, value)).toEqual({ computationId: 'aud_1', write });
  });

  it('reads records written by the previous release (the format is pinned)', () => {
    expect(decodeMembershipChange('aud_1:u1', Buffer.from('{"value":true,"syncId":"2026-11-22"}'))).toEqual({
      computationId: 'aud_1',
      write: { kind: 'member', userId: 'u1', record: { value: true, syncId: '2026-11-22' } },
    });
    expect(decodeMembershipChange('aud_1', Buffer.from('{"syncId":"2026-11-22","pages":[1]}'))).toEqual({
      computationId: 'aud_1',
      write: { kind: 'progress', progress: { syncId: '2026-11-22', pages: [1] } },
    });
  });

  it('refuses a computation id that would make the key ambiguous', () => {
    expect(() => encodeMembershipChange('aud:1', { kind: 'progress', progress: null })).toThrow(
      /holds a colon/,
    );
  });
});
