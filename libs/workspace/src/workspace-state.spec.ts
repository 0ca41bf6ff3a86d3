import { randomBytes } from 'node:crypto';
import { encodeWorkspaceEntry, workspaceRecordKey } from '@switchyard/contracts';
import { SecretCipher } from './secret-cipher';
import { mapDestinationSecrets } from './secret-fields';
import { WorkspaceState } from './workspace-state';

const cipher = SecretCipher.fromSetting(`k1:${randomBytes(32).toString('base64')}`);
const entry = (resource: Record<string, unknown>, revision = 1) =>
  encodeWorkspaceEntry({ revision, changedAt: '2026-01-01T00:00:00.000Z', changedBy: 'ops', resource });
const source = { id: 'web', name: 'Website', writeKey: 'write-key-0001' };
const destination = {
  id: 'hooks',
  type: 'Webhooks',
  enabled: true,
  sources: ['web'],
  settings: { sharedSecret: 'shared-secret-0001', webhooks: [{ url: 'https://a.example/hook' }] },
};
const sealed = mapDestinationSecrets(destination, (s) => cipher.seal(s));

describe('WorkspaceState', () => {
  it('applies records in order, opening secrets, and forgets a resource on its tombstone', () => {
    const state = new WorkspaceState(cipher);
    expect(state.apply(workspaceRecordKey('source', 'web'), entry(source))).toEqual({ applied: 'stored' });
    expect(state.apply(workspaceRecordKey('destination', 'hooks'), entry(sealed))).toEqual({
      applied: 'stored',
    });
    expect(
      state.apply(workspaceRecordKey('destination', 'hooks'), entry({ ...sealed, enabled: false }, 2)),
    ).toEqual({
      applied: 'stored',
    });
    expect(state.destination('hooks')).toMatchObject({ revision: 2, resource: { enabled: false } });
    expect(state.config.destinations[0].settings.sharedSecret).toBe('shared-secret-0001');
    expect(state.apply(workspaceRecordKey('destination', 'hooks'), null)).toEqual({ applied: 'deleted' });
    expect(state.config).toMatchObject({ sources: [source], destinations: [] });
  });

  it('skips a record it cannot read, naming why, and keeps the previous state', () => {
    const state = new WorkspaceState(cipher);
    state.apply(workspaceRecordKey('source', 'web'), entry(source));
    const outcomes = [
      state.apply('widget:1', entry(source)),
      state.apply(workspaceRecordKey('source', 'web'), Buffer.from('{not json')),
      state.apply(workspaceRecordKey('source', 'web'), entry({ ...source, writeKey: 'short' }, 2)),
      state.apply(workspaceRecordKey('source', 'other'), entry(source)),
      state.apply(workspaceRecordKey('destination', 'hooks'), entry({ ...sealed, colour: 'red' })),
      new WorkspaceState(undefined).apply(workspaceRecordKey('destination', 'hooks'), entry(sealed)),
    ];
    expect(outcomes.map((o) => ('skipped' in o ? o.skipped : 'applied'))).toEqual([
      expect.stringContaining('is not <source|destination>:<id>'),
      expect.stringContaining('JSON'),
      expect.stringContaining('writeKey: writeKey must be 8-256 characters'),
      'record key names "other" but the source is "web"',
      expect.stringContaining('colour: unknown field'),
      expect.stringContaining('no encryption key is configured'),
    ]);
    expect(state.source('web')).toMatchObject({ revision: 1, resource: source });
  });
});
