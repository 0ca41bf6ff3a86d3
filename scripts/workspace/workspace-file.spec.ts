import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkWorkspaceFile, readWorkspaceFile } from './workspace-file';

const destination = {
  id: 'hooks',
  type: 'Webhooks',
  enabled: true,
  sources: ['web'],
  settings: { webhooks: [{ url: 'https://hooks.example.com' }] },
};

describe('checkWorkspaceFile', () => {
  it('accepts sources without a writeKey and hands them on without one', () => {
    const check = checkWorkspaceFile({
      sources: [
        { id: 'web', name: 'Web' },
        { id: 'app', name: 'App' },
      ],
      destinations: [destination],
    });
    expect(check).toEqual({
      workspace: {
        sources: [
          { id: 'web', name: 'Web' },
          { id: 'app', name: 'App' },
        ],
        destinations: [destination],
      },
      problems: [],
    });
  });

  it('refuses an unknown field and names it', () => {
    const misspelt = {
      ...destination,
      settings: { ...destination.settings, sharedSecert: 'whsec_0123456789' },
    };
    const check = checkWorkspaceFile({ sources: [{ id: 'web', name: 'Web' }], destinations: [misspelt] });
    expect(check.problems).toEqual([expect.stringContaining('sharedSecert')]);
  });

  it('applies the rules that span resources', () => {
    const check = checkWorkspaceFile({
      sources: [
        { id: 'app', name: 'App', writeKey: 'same-write-key' },
        { id: 'api', name: 'Api', writeKey: 'same-write-key' },
      ],
      destinations: [destination],
    });
    expect(check.problems).toEqual([
      'sources: a writeKey is used by two sources',
      'destinations[0].sources: unknown source "web"',
    ]);
  });
});

describe('readWorkspaceFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'workspace-file-'));
  });

  it('reads YAML, and JSON by its extension', async () => {
    await writeFile(join(dir, 'w.yaml'), 'sources:\n  - id: web\n    name: Web\ndestinations: []\n');
    await writeFile(join(dir, 'w.json'), JSON.stringify({ sources: [], destinations: [] }));
    expect(await readWorkspaceFile(join(dir, 'w.yaml'))).toEqual({
      workspace: { sources: [{ id: 'web', name: 'Web' }], destinations: [] },
      problems: [],
    });
    expect(await readWorkspaceFile(join(dir, 'w.json'))).toEqual({
      workspace: { sources: [], destinations: [] },
      problems: [],
    });
  });

  it('names a file it cannot read or parse', async () => {
    await writeFile(join(dir, 'broken.json'), '{"sources": [');
    expect((await readWorkspaceFile(join(dir, 'missing.yaml'))).problems).toEqual([
      expect.stringMatching(/^cannot read .*missing\.yaml: /),
    ]);
    expect((await readWorkspaceFile(join(dir, 'broken.json'))).problems).toEqual([
      expect.stringMatching(/broken\.json is not valid JSON: /),
    ]);
  });
});
