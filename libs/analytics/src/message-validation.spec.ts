import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { trackingRuleCases } from '../../contracts/test-support/tracking-rule-cases';
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
      [{ field: 'userId', reason: 'userId or anonymousId is required (a non-empty string)' }],
    ],
    [
      'an over-long anonymousId',
      'identify',
      { anonymousId: 'a'.repeat(513) },
      [{ field: 'anonymousId', reason: 'anonymousId must be shorter than or equal to 512 characters' }],
    ],
    [
      'a numeric userId',
      'page',
      { userId: 42 },
      [{ field: 'userId', reason: 'userId or anonymousId is required (a non-empty string)' }],
    ],
    [
      'track without event',
      'track',
      { userId: 'u1' },
      [{ field: 'event', reason: 'event is required for track' }],
    ],
    [
      'group without groupId',
      'group',
      { userId: 'u1' },
      [{ field: 'groupId', reason: 'groupId is required for group' }],
    ],
    [
      'alias without userId',
      'alias',
      { anonymousId: 'a', previousId: 'p' },
      [{ field: 'userId', reason: 'userId is required for alias' }],
    ],
    [
      'traits as a string',
      'identify',
      { userId: 'u1', traits: 'pro' },
      [{ field: 'traits', reason: 'traits must be an object' }],
    ],
    [
      'integrations as an array',
      'track',
      { userId: 'u1', event: 'E', integrations: [] },
      [{ field: 'integrations', reason: 'integrations must be an object' }],
    ],
    [
      'an invalid Date',
      'track',
      { userId: 'u1', event: 'E', timestamp: new Date('x') },
      [{ field: 'timestamp', reason: 'timestamp must be an ISO 8601 date-time' }],
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

describe('validateMessage against the Tracking API cases ingest is held to', () => {
  it.each(trackingRuleCases().map((c) => [c.name, c] as const))('%s', (_, { message, refused }) => {
    const { type, ...record } = message;
    const fields = validateMessage(type as CallType, record).map((error) => error.field);
    expect(fields.sort()).toEqual([...refused].sort());
  });

  it('checks a Date timestamp as the ISO string it is sent as', () => {
    const record = { userId: 'u1', event: 'E', timestamp: new Date('2015-01-02T10:04:05Z') };
    expect(validateMessage('track', record)).toEqual([]);
  });
});

describe('the rules this package compiles in from libs/contracts', () => {
  // The package is published on its own: the rules may import only each other.
  const RULE_FILES = ['call-validation.ts', 'call-assertions.ts', 'call.ts', 'timestamp.ts'];
  it.each(RULE_FILES)('%s imports only the other rule files', (file) => {
    const source = readFileSync(join(__dirname, '..', '..', 'contracts', 'src', 'calls', file), 'utf8');
    const imported = [...source.matchAll(/from '([^']+)'/g)].map((m) => `${m[1].replace(/^\.\//, '')}.ts`);
    for (const name of imported) expect(RULE_FILES).toContain(name);
  });
});
