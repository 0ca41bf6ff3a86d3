import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@switchyard/telemetry';
import { ingestSettingsFromEnv } from './ingest-settings';
import { startIngest } from './ingest.app';

const env = (over: NodeJS.ProcessEnv) => ({ WORKSPACE_CONFIG: '/dev/null', ...over });

describe('ingest start-up refuses bad configuration with a message naming it', () => {
  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number from 0 to 65535/],
    [{ KAFKA_BROKERS: 'localhost' }, /KAFKA_BROKERS/],
    [
      { INGEST_MAX_MESSAGE_BYTES: '10' },
      /INGEST_MAX_MESSAGE_BYTES must be a whole number from 1024 to 1048576/,
    ],
    [{ ADMIN_TOKEN: 'short' }, /ADMIN_TOKEN/],
    [{ KAFKA_COMPRESSION: 'lz4' }, /KAFKA_COMPRESSION must be one of: zstd, gzip, none/],
    [{ INGEST_MAX_JSON_DEPTH: '2' }, /INGEST_MAX_JSON_DEPTH must be a whole number from 8 to 512/],
    [
      { INGEST_HEADERS_TIMEOUT_MS: 'soon' },
      /INGEST_HEADERS_TIMEOUT_MS must be a whole number from 1000 to 300000/,
    ],
    [{ INGEST_KEEP_ALIVE_TIMEOUT_MS: '10' }, /INGEST_KEEP_ALIVE_TIMEOUT_MS/],
    [
      { INGEST_HEADERS_TIMEOUT_MS: '60000', INGEST_REQUEST_TIMEOUT_MS: '30000' },
      /INGEST_HEADERS_TIMEOUT_MS must not exceed INGEST_REQUEST_TIMEOUT_MS/,
    ],
    [{ INGEST_PUBLIC_URL: 'events.example.com' }, /INGEST_PUBLIC_URL must be an http\(s\) URL/],
    [{ INGEST_PUBLIC_URL: 'https://events.example.com/?x=1' }, /INGEST_PUBLIC_URL/],
    [{ INGEST_TRUST_PROXY: '11' }, /INGEST_TRUST_PROXY must be false, true, a hop count \(1-10\)/],
    [{ INGEST_TRUST_PROXY: 'the load balancer' }, /INGEST_TRUST_PROXY/],
  ])('%p', (over, message) => {
    expect(() => ingestSettingsFromEnv(env(over))).toThrow(message);
  });

  it('reads the public URL (without a trailing slash) and which proxies to trust', () => {
    expect(ingestSettingsFromEnv(env({ INGEST_PUBLIC_URL: 'https://example.com/segment/' })).publicUrl).toBe(
      'https://example.com/segment',
    );
    expect(ingestSettingsFromEnv(env({})).trustProxy).toBe(false);
    const trustProxy = (value: string) =>
      ingestSettingsFromEnv(env({ INGEST_TRUST_PROXY: value })).trustProxy;
    expect([
      trustProxy('true'),
      trustProxy('2'),
      trustProxy('10.0.0.0/8, 192.168.1.1'),
      trustProxy('uniquelocal,::1'),
    ]).toEqual([true, 2, '10.0.0.0/8, 192.168.1.1', 'uniquelocal,::1']);
  });

  it('stops before listening when the workspace file is invalid', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'switchyard-ws-')), 'workspace.json');
    writeFileSync(
      path,
      JSON.stringify({
        sources: [],
        destinations: [
          {
            id: 'd',
            type: 'Webhooks',
            enabled: true,
            sources: ['ghost'],
            settings: { webhooks: [{ url: 'https://e.com' }] },
          },
        ],
      }),
    );
    const settings = ingestSettingsFromEnv(env({ WORKSPACE_CONFIG: path, PORT: '0', HOST: '127.0.0.1' }));
    await expect(startIngest(settings, createLogger('test', 'silent'))).rejects.toThrow(
      /destinations\[0\]\.sources: unknown source "ghost"/,
    );
  });
});
