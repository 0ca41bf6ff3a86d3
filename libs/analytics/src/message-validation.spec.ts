import type { FieldError } from './errors';
import type { CallType } from './messages';
import { validateMessage } from './message-validation';

describe('validateMessage', () => {
  const valid: Array<[CallType, object]> = [
    ['identify', { userId: 'u1', traits: { plan: 'pro' } }],
    ['identify', { anonymousId: 'a1' }],
    [
      'track',
      { userId: 'u1', event: 'Signed Up', properties: {}, integrations: { All: false, Webhooks: true } },
    ],
    ['page', { anonymousId: 'a1', name: 'Home', category: 'Docs', timestamp: new Date() }],
    ['screen', { userId: 'u1', name: 'Dashboard', timestamp: '2015-01-02T10:04:05-0700' }],
    ['group', { userId: 'u1', groupId: 'g1' }],
    ['alias', { userId: 'u1', previousId: 'a1' }],
  ];
  it.each(valid)('accepts a valid %s', (type, record) => expect(validateMessage(type, record)).toEqual([]));

  const invalid: Array<[string, CallType, unknown, FieldError[]]> = [
    [
      'no identity',
      'track',
      { event: 'E' },
      [{ field: 'userId', reason: 'userId or anonymousId is required (a non-empty string)' }],
    ],
    [
      'an empty userId',
      'identify',
      { userId: '' },
      [{ field: 'userId', reason: 'is required (a non-empty string)' }],
    ],
    [
      'an over-long anonymousId',
      'identify',
      { anonymousId: 'a'.repeat(513) },
      [{ field: 'anonymousId', reason: 'must be at most 512 characters' }],
    ],
    [
      'a numeric userId',
      'page',
      { userId: 42 },
      [{ field: 'userId', reason: 'is required (a non-empty string)' }],
    ],
    [
      'track without event',
      'track',
      { userId: 'u1' },
      [{ field: 'event', reason: 'is required (a non-empty string)' }],
    ],
    [
      'group without groupId',
      'group',
      { userId: 'u1' },
      [{ field: 'groupId', reason: 'is required (a non-empty string)' }],
    ],
    [
      'alias without userId',
      'alias',
      { anonymousId: 'a', previousId: 'p' },
      [{ field: 'userId', reason: 'is required (a non-empty string)' }],
    ],
    [
      'traits as a string',
      'identify',
      { userId: 'u1', traits: 'pro' },
      [{ field: 'traits', reason: 'must be an object when given' }],
    ],
    [
      'integrations as an array',
      'track',
      { userId: 'u1', event: 'E', integrations: [] },
      [{ field: 'integrations', reason: 'must be an object when given' }],
    ],
    [
      'an invalid Date',
      'track',
      { userId: 'u1', event: 'E', timestamp: new Date('x') },
      [{ field: 'timestamp', reason: 'must be a valid Date or an ISO 8601 date-time string' }],
    ],
    [
      'a record that is not an object',
      'identify',
      'u1',
      [{ field: '', reason: 'the call must be an object' }],
    ],
  ];
  it.each(invalid)('refuses %s, naming the field', (_, type, record, errors) =>
    expect(validateMessage(type, record)).toEqual(errors),
  );
});
