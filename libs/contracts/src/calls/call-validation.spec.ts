import { validateCall } from './call-validation';

const fieldsOf = (raw: unknown) => validateCall(raw).map((e) => e.field);

describe('validateCall', () => {
  it.each([
    ['identify with userId', { type: 'identify', userId: 'u1', traits: { a: 1 } }],
    ['identify with anonymousId only', { type: 'identify', anonymousId: 'a1' }],
    ['track', { type: 'track', userId: 'u1', event: 'Signed Up', properties: {} }],
    ['page without name', { type: 'page', userId: 'u1' }],
    ['screen', { type: 'screen', anonymousId: 'a1', name: 'Home' }],
    ['group', { type: 'group', userId: 'u1', groupId: 'g1' }],
    ['alias', { type: 'alias', userId: 'u2', previousId: 'u1' }],
    ['historical timestamp', { type: 'track', userId: 'u1', event: 'E', timestamp: '2006-01-02T15:04:05-0700' }],
  ])('accepts %s', (_name, raw) => {
    expect(validateCall(raw)).toEqual([]);
  });

  it.each([
    ['no ids', { type: 'identify' }, ['userId']],
    ['empty userId', { type: 'identify', userId: '' }, ['userId']],
    ['numeric userId', { type: 'identify', userId: 42 }, ['userId']],
    ['track without event', { type: 'track', userId: 'u1' }, ['event']],
    ['group without groupId', { type: 'group', userId: 'u1' }, ['groupId']],
    ['alias without previousId', { type: 'alias', userId: 'u1' }, ['previousId']],
    ['alias with only anonymousId', { type: 'alias', anonymousId: 'a', previousId: 'p' }, ['userId']],
    ['unknown type', { type: 'purchase', userId: 'u1' }, ['type']],
    ['missing type', { userId: 'u1' }, ['type']],
    ['bad timestamp', { type: 'track', userId: 'u1', event: 'E', timestamp: 'yesterday' }, ['timestamp']],
    ['properties as array', { type: 'track', userId: 'u1', event: 'E', properties: [1] }, ['properties']],
    ['integrations as string', { type: 'track', userId: 'u1', event: 'E', integrations: 'all' }, ['integrations']],
  ])('refuses %s, naming the field', (_name, raw, fields) => {
    expect(fieldsOf(raw)).toEqual(fields);
  });

  it('refuses a message that is not an object', () => {
    expect(validateCall([1, 2])).toEqual([{ field: '', reason: 'each message must be a JSON object' }]);
    expect(validateCall('track')).toHaveLength(1);
  });

  it('does not accept prototype keys as a type', () => {
    expect(fieldsOf({ type: 'constructor', userId: 'u1' })).toEqual(['type']);
  });

  it('still checks a message that carries its own "constructor" key', () => {
    // JSON.parse makes it an own property; it must not hide the rules of the message's type.
    expect(fieldsOf(JSON.parse('{"type":"track","constructor":"x"}'))).toEqual(['event', 'userId']);
    expect(validateCall(JSON.parse('{"type":"track","userId":"u1","event":"E","constructor":"x"}'))).toEqual([]);
  });
});
