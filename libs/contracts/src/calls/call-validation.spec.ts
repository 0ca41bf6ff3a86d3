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
    [
      'historical timestamp',
      { type: 'track', userId: 'u1', event: 'E', timestamp: '2006-01-02T15:04:05-0700' },
    ],
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
    [
      'integrations as string',
      { type: 'track', userId: 'u1', event: 'E', integrations: 'all' },
      ['integrations'],
    ],
  ])('refuses %s, naming the field', (_name, raw, fields) => {
    expect(fieldsOf(raw)).toEqual(fields);
  });

  it('refuses a message that is not an object', () => {
    expect(validateCall([1, 2])).toEqual([
      { field: '', reason: 'each message must be a JSON object', kind: 'invalid' },
    ]);
    expect(validateCall('track')).toHaveLength(1);
  });

  it('does not accept prototype keys as a type', () => {
    expect(fieldsOf({ type: 'constructor', userId: 'u1' })).toEqual(['type']);
  });

  it('still checks a message that carries its own "constructor" key', () => {
    // JSON.parse makes it an own property; it must not hide the rules of the message's type.
    expect(fieldsOf(JSON.parse('{"type":"track","constructor":"x"}'))).toEqual(['event', 'userId']);
    expect(validateCall(JSON.parse('{"type":"track","userId":"u1","event":"E","constructor":"x"}'))).toEqual(
      [],
    );
  });

  it.each([
    [
      'a missing userId',
      { type: 'identify' },
      { field: 'userId', kind: 'missing', reason: 'userId or anonymousId is required (a non-empty string)' },
    ],
    [
      'a numeric userId',
      { type: 'identify', userId: 42 },
      { field: 'userId', kind: 'invalid', reason: 'userId or anonymousId is required (a non-empty string)' },
    ],
    [
      'a missing event',
      { type: 'track', userId: 'u' },
      { field: 'event', kind: 'missing', reason: 'event is required for track' },
    ],
    [
      'an empty event',
      { type: 'track', userId: 'u', event: '' },
      { field: 'event', kind: 'invalid', reason: 'event must not be empty' },
    ],
    [
      'a boolean messageId',
      { type: 'page', userId: 'u', messageId: true },
      { field: 'messageId', kind: 'invalid', reason: 'messageId must be a string' },
    ],
    [
      'an empty anonymousId',
      { type: 'page', userId: 'u', anonymousId: '' },
      { field: 'anonymousId', kind: 'invalid', reason: 'anonymousId should not be empty' },
    ],
    [
      'a 513-character groupId',
      { type: 'group', userId: 'u', groupId: 'g'.repeat(513) },
      {
        field: 'groupId',
        kind: 'invalid',
        reason: 'groupId must be shorter than or equal to 512 characters',
      },
    ],
    [
      'a missing previousId',
      { type: 'alias', userId: 'u' },
      { field: 'previousId', kind: 'missing', reason: 'previousId is required for alias' },
    ],
    [
      'a page name that is a number',
      { type: 'page', userId: 'u', name: 7 },
      { field: 'name', kind: 'invalid', reason: 'name must be a string' },
    ],
    [
      'a missing type',
      { userId: 'u' },
      {
        field: 'type',
        kind: 'missing',
        reason: 'type must be one of: identify, track, page, screen, group, alias',
      },
    ],
    [
      'a type in an array',
      { type: ['track'], userId: 'u', event: 'E' },
      {
        field: 'type',
        kind: 'invalid',
        reason: 'type must be one of: identify, track, page, screen, group, alias',
      },
    ],
  ])('words %s and gives its kind', (_name, raw, problem) => {
    expect(validateCall(raw)).toEqual([problem]);
  });

  it('counts characters as a reader does: 512 emoji are a valid id, 513 are not, variation selectors are free', () => {
    expect(validateCall({ type: 'identify', userId: '😀'.repeat(512) })).toEqual([]);
    expect(validateCall({ type: 'identify', userId: '❤\uFE0F'.repeat(512) })).toEqual([]);
    expect(fieldsOf({ type: 'identify', anonymousId: '😀'.repeat(513) })).toEqual(['anonymousId']);
  });

  it('treats null optional fields as absent, as Segment SDKs send them', () => {
    expect(
      validateCall({
        type: 'track',
        userId: 'u',
        event: 'E',
        anonymousId: null,
        properties: null,
        context: null,
        timestamp: null,
      }),
    ).toEqual([]);
  });

  it('reads __proto__ and prototype-named keys as plain fields, changing no rule', () => {
    expect(
      validateCall(JSON.parse('{"type":"track","userId":"u","event":"E","__proto__":{"event":""}}')),
    ).toEqual([]);
    expect(fieldsOf(JSON.parse('{"type":"track","__proto__":{"userId":"u","event":"E"}}'))).toEqual([
      'event',
      'userId',
    ]);
    expect(fieldsOf({ type: 'toString', userId: 'u' })).toEqual(['type']);
  });
});
