import { checkResource, Destination, destinationProblems } from './workspace-config';

const WHSEC = 'whsec_' + Buffer.alloc(32, 3).toString('base64');
const OLD_WHSEC = 'whsec_' + Buffer.alloc(32, 4).toString('base64');
const EXPIRES = '2026-07-01T00:00:00Z';

/** Every problem the destination's settings have: its fields first, then the rules that span them. */
function problemsOf(settings: Record<string, unknown>): string[] {
  const check = checkResource(Destination, {
    id: 'hooks',
    type: 'Webhooks',
    enabled: true,
    sources: [],
    settings: { webhooks: [{ url: 'https://example.com/hook' }], ...settings },
  });
  return check.value ? destinationProblems(check.value, new Set()) : check.problems;
}

describe('signature settings', () => {
  it.each<[string, Record<string, unknown>]>([
    ['the default scheme with any secret', { sharedSecret: 'plain' }],
    ['segment without a secret (unsigned)', { signature: 'segment' }],
    ['standard-webhooks with a whsec_ secret', { signature: 'standard-webhooks', sharedSecret: WHSEC }],
    ['both with a whsec_ secret', { signature: 'both', sharedSecret: WHSEC }],
    [
      'a Standard Webhooks rotation',
      {
        signature: 'standard-webhooks',
        sharedSecret: WHSEC,
        previousSecret: OLD_WHSEC,
        previousSecretExpiresAt: EXPIRES,
      },
    ],
    [
      'a move from an X-Signature secret with both',
      { signature: 'both', sharedSecret: WHSEC, previousSecret: 'plain', previousSecretExpiresAt: EXPIRES },
    ],
    [
      'an expiry with an offset and fractions',
      { sharedSecret: 'new', previousSecret: 'old', previousSecretExpiresAt: '2026-07-01T02:00:00.5+02:00' },
    ],
  ])('accepts %s', (_what, settings) => {
    expect(problemsOf(settings)).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an unknown scheme', { signature: 'svix' }, 'settings.signature: signature must be one of segment'],
    [
      'standard-webhooks without a secret',
      { signature: 'standard-webhooks' },
      'settings.sharedSecret: required with signature "standard-webhooks"',
    ],
    [
      'both with a secret that is not whsec_',
      { signature: 'both', sharedSecret: 'plain-secret' },
      'settings.sharedSecret: with signature "both" it must be a Standard Webhooks secret',
    ],
    [
      'a whsec_ secret of too few bytes',
      { signature: 'standard-webhooks', sharedSecret: 'whsec_' + Buffer.alloc(16).toString('base64') },
      'settings.sharedSecret: with signature "standard-webhooks" it must be a Standard Webhooks secret',
    ],
    [
      'a previous secret without an expiry',
      { sharedSecret: 'new', previousSecret: 'old' },
      'settings.previousSecretExpiresAt: required with previousSecret',
    ],
    [
      'an expiry without a previous secret',
      { sharedSecret: 'new', previousSecretExpiresAt: EXPIRES },
      'settings.previousSecretExpiresAt: set only together with previousSecret',
    ],
    [
      'a previous secret with nothing to rotate to',
      { previousSecret: 'old', previousSecretExpiresAt: EXPIRES },
      'settings.previousSecret: needs a sharedSecret',
    ],
    [
      'a previous secret equal to the new one',
      { sharedSecret: 'same', previousSecret: 'same', previousSecretExpiresAt: EXPIRES },
      'settings.previousSecret: must differ from sharedSecret',
    ],
    [
      'a previous X-Signature secret under standard-webhooks',
      {
        signature: 'standard-webhooks',
        sharedSecret: WHSEC,
        previousSecret: 'plain',
        previousSecretExpiresAt: EXPIRES,
      },
      'settings.previousSecret: with signature "standard-webhooks" it must be a Standard Webhooks secret',
    ],
    [
      'an expiry that is not a date',
      { sharedSecret: 'new', previousSecret: 'old', previousSecretExpiresAt: 'next week' },
      'settings.previousSecretExpiresAt: previousSecretExpiresAt must be an ISO 8601 date-time with an offset',
    ],
    [
      'an expiry without an offset',
      { sharedSecret: 'new', previousSecret: 'old', previousSecretExpiresAt: '2026-07-01T00:00:00' },
      'settings.previousSecretExpiresAt: previousSecretExpiresAt must be an ISO 8601 date-time with an offset',
    ],
    [
      'a static header named like a signature header',
      { webhooks: [{ url: 'https://example.com/hook', headers: { 'Webhook-Signature': 'v1,x' } }] },
      'settings.webhooks[0].headers.Webhook-Signature: Webhook-Signature is set by Switchyard',
    ],
  ])('refuses %s, naming the field', (_what, settings, problem) => {
    expect(problemsOf(settings)).toEqual([expect.stringContaining(problem)]);
  });

  it('never repeats a secret in a problem', () => {
    const problems = problemsOf({ signature: 'both', sharedSecret: 'do-not-echo-me' });
    expect(problems).toHaveLength(1);
    expect(problems.join()).not.toContain('do-not-echo-me');
  });
});
