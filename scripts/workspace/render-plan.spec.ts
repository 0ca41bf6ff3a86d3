import { Plan } from './plan';
import { renderPlan } from './render-plan';

const plan = (overrides: Partial<Plan>): Plan => ({
  steps: [],
  unchanged: 0,
  unverifiedSecrets: [],
  resendSecrets: false,
  ...overrides,
});

describe('renderPlan', () => {
  it('prints a summary, then each step with its fields', () => {
    const text = renderPlan(
      plan({
        unchanged: 2,
        steps: [
          {
            action: 'create',
            kind: 'source',
            id: 'web',
            body: { id: 'web', name: 'Web', writeKey: 'web-write-key-in-clear' },
            fields: [
              { path: 'name', after: '"Web"' },
              { path: 'writeKey', after: '••••lear' },
            ],
          },
          {
            action: 'update',
            kind: 'destination',
            id: 'hooks',
            etag: '"3"',
            body: { settings: { sharedSecret: 'whsec_in_clear_secret' } },
            fields: [
              { path: 'enabled', before: 'true', after: 'false' },
              { path: 'settings.webhooks[1].url', after: '"https://b.example.com"' },
              { path: 'settings.sharedSecret', before: '••••aaaa', after: '••••cret' },
            ],
          },
          { action: 'delete', kind: 'source', id: 'old', etag: '"9"' },
        ],
      }),
    );
    expect(text).toBe(
      [
        'Plan: 1 to create, 1 to update, 1 to delete, 2 unchanged.',
        '+ create source "web"',
        '    name: "Web"',
        '    writeKey: ••••lear',
        '~ update destination "hooks"',
        '    enabled: true → false',
        '    settings.webhooks[1].url: (none) → "https://b.example.com"',
        '    settings.sharedSecret: ••••aaaa → ••••cret',
        '- delete source "old"',
        '',
      ].join('\n'),
    );
    expect(text).not.toContain('in-clear');
    expect(text).not.toContain('in_clear');
  });

  it('says when there is nothing to do', () => {
    expect(renderPlan(plan({ unchanged: 3 }))).toBe(
      'Plan: 0 to create, 0 to update, 0 to delete, 3 unchanged.\nNothing to do: the console already matches the file.\n',
    );
  });

  it('names the secrets it could not compare and how to send them anyway', () => {
    const text = renderPlan(
      plan({ unverifiedSecrets: [{ kind: 'destination', id: 'hooks', path: 'settings.sharedSecret' }] }),
    );
    expect(text).toContain('--resend-secrets');
    expect(text).toContain('    destination "hooks" settings.sharedSecret\n');
  });

  it('marks a secret re-sent although its mask is unchanged', () => {
    const text = renderPlan(
      plan({
        resendSecrets: true,
        steps: [
          {
            action: 'update',
            kind: 'destination',
            id: 'hooks',
            etag: '"1"',
            body: {},
            fields: [{ path: 'settings.sharedSecret', before: '••••cret', after: '••••cret', resent: true }],
          },
        ],
      }),
    );
    expect(text).toContain('    settings.sharedSecret: ••••cret (re-sent: masks cannot show a change)\n');
  });
});
