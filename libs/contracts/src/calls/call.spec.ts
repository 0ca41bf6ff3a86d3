import { eventKey } from './call';

describe('eventKey', () => {
  it('keys a call by source and user', () => {
    expect(eventKey('web', { userId: 'u1', anonymousId: 'a1' })).toBe('web:u1');
  });
  it('keys an anonymous call by its anonymousId, also when userId is empty (analytics-kotlin sends "")', () => {
    expect(eventKey('app', { anonymousId: 'a1' })).toBe('app:a1');
    expect(eventKey('app', { userId: '', anonymousId: 'a1' })).toBe('app:a1');
  });
});
