import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { register } from 'prom-client';
import { ConfigError } from './settings';
import { loadWorkspaceConfig, WorkspaceConfigStore } from './workspace-config-store';
import { workspaceVersion } from './workspace-metrics';

const dir = mkdtempSync(join(tmpdir(), 'switchyard-config-'));
let fileNo = 0;
const write = (content: string | object, ext = 'json') => {
  const path = join(dir, `workspace-${fileNo++}.${ext}`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

const source = (id: string, writeKey = `${id}-write-key`) => ({ id, name: id, writeKey });
const destination = (over: object = {}) => ({
  id: 'hooks',
  type: 'Webhooks',
  enabled: true,
  sources: ['web'],
  settings: {
    sharedSecret: 'top-secret-value',
    webhooks: [{ url: 'https://example.com/hook', headers: { Authorization: 'Bearer x' } }],
  },
  ...over,
});
const workspace = (over: object = {}) => ({
  sources: [source('web')],
  destinations: [destination()],
  ...over,
});

/** A logger whose lines the test can read. */
function capturingLogger() {
  const lines: string[] = [];
  const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('loadWorkspaceConfig', () => {
  it('loads a source allowedOrigins, exact and wildcard', () => {
    const origins = ['https://shop.example.com', 'https://*.example.org:8443', 'http://localhost:3000'];
    expect(
      loadWorkspaceConfig(write(workspace({ sources: [{ ...source('web'), allowedOrigins: origins }] })))
        .sources[0].allowedOrigins,
    ).toEqual(origins);
  });

  it('loads JSON and YAML', () => {
    expect(loadWorkspaceConfig(write(workspace())).destinations[0].settings.webhooks).toHaveLength(1);
    const yaml = `sources:\n  - {id: web, name: Web, writeKey: web-write-key}\ndestinations:\n  - id: hooks\n    type: Webhooks\n    enabled: false\n    sources: [web]\n    settings:\n      webhooks:\n        - url: http://127.0.0.1:9000/x\n`;
    expect(loadWorkspaceConfig(write(yaml, 'yaml')).destinations[0].enabled).toBe(false);
  });

  it.each([
    [
      'six webhook URLs',
      workspace({
        destinations: [
          destination({
            settings: { webhooks: Array.from({ length: 6 }, () => ({ url: 'https://example.com' })) },
          }),
        ],
      }),
      /webhooks may list at most 5 URLs/,
    ],
    [
      'no webhook URL',
      workspace({ destinations: [destination({ settings: { webhooks: [] } })] }),
      /at least one URL/,
    ],
    [
      'a URL without protocol',
      workspace({ destinations: [destination({ settings: { webhooks: [{ url: 'example.com/hook' }] } })] }),
      /destinations\[0\]\.settings\.webhooks\[0\]\.url: url must be a full http or https URL/,
    ],
    [
      'an ftp URL',
      workspace({
        destinations: [destination({ settings: { webhooks: [{ url: 'ftp://example.com/x' }] } })],
      }),
      /full http or https URL/,
    ],
    [
      'an unknown source',
      workspace({ destinations: [destination({ sources: ['nope'] })] }),
      /destinations\[0\]\.sources: unknown source "nope"/,
    ],
    [
      'a duplicate source id',
      workspace({ sources: [source('web'), source('web', 'other-write-key')] }),
      /id "web" is used twice/,
    ],
    [
      'a shared write key',
      workspace({ sources: [source('web'), source('app', 'web-write-key')] }),
      /writeKey is used by two sources/,
    ],
    [
      'a reserved header',
      workspace({
        destinations: [
          destination({
            settings: { webhooks: [{ url: 'https://e.com', headers: { 'X-Signature': 'forged' } }] },
          }),
        ],
      }),
      /X-Signature is set by Switchyard/,
    ],
    [
      'a non-string header value',
      workspace({
        destinations: [
          destination({ settings: { webhooks: [{ url: 'https://e.com', headers: { 'X-N': 5 } }] } }),
        ],
      }),
      /header values must be strings/,
    ],
    [
      'enabled as a string',
      workspace({ destinations: [destination({ enabled: 'yes' })] }),
      /enabled must be true or false/,
    ],
    [
      'another destination type',
      workspace({ destinations: [destination({ type: 'Amplitude' })] }),
      /type must be "Webhooks"/,
    ],
    [
      'a short write key',
      workspace({ sources: [source('web', 'short')] }),
      /writeKey must be 8-256 characters/,
    ],
    [
      'an allowed origin with a path',
      workspace({ sources: [{ ...source('web'), allowedOrigins: ['https://shop.example.com/'] }] }),
      /sources\[0\]\.allowedOrigins: allowedOrigins entries must be origins/,
    ],
    [
      'an empty allowedOrigins',
      workspace({ sources: [{ ...source('web'), allowedOrigins: [] }] }),
      /allowedOrigins, when set, must list at least one origin/,
    ],
  ])('refuses %s, naming the field and the rule', (_name, config, message) => {
    const path = write(config);
    expect(() => loadWorkspaceConfig(path)).toThrow(ConfigError);
    expect(() => loadWorkspaceConfig(path)).toThrow(message);
  });

  it('refuses a file that is not YAML, or missing', () => {
    expect(() => loadWorkspaceConfig(write('sources: [unclosed', 'yaml'))).toThrow(/is not valid YAML/);
    expect(() => loadWorkspaceConfig(join(dir, 'missing.yaml'))).toThrow(
      /cannot read workspace configuration/,
    );
  });
});

describe('WorkspaceConfigStore', () => {
  it('applies a valid edit and tells listeners; refuses an invalid one, keeping the previous, without logging secrets', () => {
    const { logger, lines } = capturingLogger();
    const path = write(workspace());
    const store = new WorkspaceConfigStore(path, logger);
    const seen: boolean[] = [];
    store.onChange((config) => seen.push(config.destinations[0].enabled));

    writeFileSync(path, JSON.stringify(workspace({ destinations: [destination({ enabled: false })] })));
    expect(store.reload()).toBe(true);
    expect(store.destination('hooks')?.enabled).toBe(false);
    expect(seen).toEqual([false]);

    writeFileSync(
      path,
      JSON.stringify(workspace({ destinations: [destination({ enabled: true, sources: ['gone'] })] })),
    );
    expect(store.reload()).toBe(false);
    expect(store.destination('hooks')?.enabled).toBe(false);
    expect(seen).toEqual([false]);
    expect(lines.join('')).toMatch(/change refused; previous configuration stays live/);
    expect(lines.join('')).toMatch(/unknown source \\"gone\\"/);
    expect(lines.join('')).not.toMatch(/top-secret-value|web-write-key/);
    store.close();
  });

  it('counts applied and refused edits and exports the live version, a hash of the file', async () => {
    const path = write(workspace());
    const store = new WorkspaceConfigStore(path, pino({ level: 'silent' }));
    const reloads = async (result: string) =>
      (await register.getSingleMetric('switchyard_workspace_reloads_total')!.get()).values.find(
        (v) => v.labels.result === result,
      )?.value;
    const liveVersions = async () =>
      (await register.getSingleMetric('switchyard_workspace_config_info')!.get()).values.map(
        (v) => v.labels.version,
      );
    const [applied, refused] = [await reloads('applied'), await reloads('refused')];
    expect(refused).toBeDefined();
    const first = store.version;
    expect(first).toBe(workspaceVersion(readFileSync(path, 'utf8')));
    expect(await liveVersions()).toEqual([first]);

    writeFileSync(path, JSON.stringify(workspace({ sources: [source('web'), source('app')] })));
    store.reload();
    expect(store.version).not.toBe(first);
    expect(await liveVersions()).toEqual([store.version]);
    writeFileSync(path, '{ "sources": [');
    store.reload();
    expect([await reloads('applied'), await reloads('refused')]).toEqual([applied! + 1, refused! + 1]);
    expect(await liveVersions()).toEqual([store.version]);
    store.close();
  });

  it('notices an edit on disk by itself when watching', async () => {
    const path = write(workspace());
    const store = new WorkspaceConfigStore(path, pino({ level: 'silent' }), 20);
    const changed = new Promise((resolve) => store.onChange(resolve));
    store.watch();
    writeFileSync(path, JSON.stringify(workspace({ sources: [source('web'), source('app')] })));
    await changed;
    expect(store.sourceByWriteKey('app-write-key')?.id).toBe('app');
    store.close();
  });

  it('answers lookups by write key, id and source', () => {
    const store = new WorkspaceConfigStore(
      write(workspace({ sources: [source('web'), source('app')] })),
      pino({ level: 'silent' }),
    );
    expect(store.sourceByWriteKey('web-write-key')?.id).toBe('web');
    expect(store.sourceByWriteKey('unknown-key')).toBeUndefined();
    expect(store.destinationsOf('web').map((d) => d.id)).toEqual(['hooks']);
    expect(store.destinationsOf('app')).toEqual([]);
    store.close();
  });
});
