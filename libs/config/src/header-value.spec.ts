import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { headerValueProblem } from './header-value';
import { ConfigError } from './settings';
import { loadWorkspaceConfig, WorkspaceConfigStore } from './workspace-config-store';

const path = join(mkdtempSync(join(tmpdir(), 'switchyard-headers-')), 'workspace.json');
const withHeaderValue = (value: string) => {
  writeFileSync(
    path,
    JSON.stringify({
      sources: [{ id: 'web', name: 'Web', writeKey: 'web-write-key' }],
      destinations: [
        {
          id: 'hooks',
          type: 'Webhooks',
          enabled: true,
          sources: ['web'],
          settings: {
            webhooks: [
              { url: 'https://example.com/a' },
              { url: 'https://example.com/b', headers: { 'X-Api-Key': value } },
            ],
          },
        },
      ],
    }),
  );
  return path;
};

describe('static header values', () => {
  it.each([
    ['CR', 'key\rInjected: yes', /a carriage return \(CR, 0x0D\) at position 3/],
    ['LF', 'key\nInjected: yes', /a line feed \(LF, 0x0A\) at position 3/],
    ['CRLF', 'key\r\n', /carriage return/],
    ['NUL', 'key\u0000', /a NUL byte \(0x00\) at position 3/],
    ['another control character', 'key\u0007', /a control character \(0x07\)/],
    ['DEL', 'key\u007f', /a DEL byte/],
    ['a character beyond one byte', 'kéy✓', /"✓" \(U\+2713, beyond the one byte/],
  ])('refuses %s at load, naming the field', (_name, value, reason) => {
    const file = withHeaderValue(value);
    expect(() => loadWorkspaceConfig(file)).toThrow(ConfigError);
    expect(() => loadWorkspaceConfig(file)).toThrow(
      'destinations[0].settings.webhooks[1].headers.X-Api-Key: the value holds',
    );
    expect(() => loadWorkspaceConfig(file)).toThrow(reason);
  });

  it.each([
    ['plain', 'Bearer abc.def'],
    ['tab and spaces', 'a\tb c'],
    ['Latin-1', 'café'],
    ['empty', ''],
  ])('accepts a %s value', (_name, value) => {
    expect(headerValueProblem(value)).toBeUndefined();
    expect(loadWorkspaceConfig(withHeaderValue(value)).destinations[0].settings.webhooks[1].headers).toEqual({
      'X-Api-Key': value,
    });
  });

  it('keeps the previous configuration live when an edit brings a CR, LF or NUL', () => {
    const store = new WorkspaceConfigStore(withHeaderValue('good'), pino({ level: 'silent' }));
    for (const bad of ['a\rb', 'a\nb', 'a\u0000b']) {
      withHeaderValue(bad);
      expect(store.reload()).toBe(false);
      expect(store.config.destinations[0].settings.webhooks[1].headers).toEqual({ 'X-Api-Key': 'good' });
    }
    store.close();
  });
});
