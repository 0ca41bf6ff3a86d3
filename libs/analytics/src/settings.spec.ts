import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigurationError } from './errors';
import { resolveSettings } from './settings';
import { LIBRARY_VERSION } from './version';

describe('resolveSettings', () => {
  it("has Segment's documented defaults: 20 messages, 5 s, and localhost:8080", () => {
    expect(resolveSettings('wk')).toMatchObject({
      flushAt: 20,
      flushAfterMs: 5000,
      batchUrl: 'http://localhost:8080/v1/batch',
      maxQueueSize: 10_000,
    });
  });

  it('takes size and flushInterval as Segment names them', () => {
    expect(resolveSettings('wk', { size: 1, flushInterval: 100 })).toMatchObject({
      flushAt: 1,
      flushAfterMs: 100,
    });
  });

  it('appends /v1/batch to an endpoint with or without a path', () => {
    expect(resolveSettings('wk', { endpoint: 'https://ingest.example/' }).batchUrl).toBe(
      'https://ingest.example/v1/batch',
    );
    expect(resolveSettings('wk', { endpoint: 'http://127.0.0.1:9000/segment' }).batchUrl).toBe(
      'http://127.0.0.1:9000/segment/v1/batch',
    );
  });

  it.each([
    ['an empty write key', '', {}, /writeKey/],
    [
      'two different values for one option',
      'wk',
      { flushAt: 10, size: 20 },
      /flushAt and size name the same option/,
    ],
    ['flushAt 0', 'wk', { flushAt: 0 }, /flushAt must be an integer from 1 to 2500; got 0/],
    ['a fractional flushAfter', 'wk', { flushAfter: 1.5 }, /flushAfter must be an integer/],
    [
      'a queue smaller than a batch',
      'wk',
      { flushAt: 100, maxQueueSize: 50 },
      /maxQueueSize \(50\) must be at least flushAt \(100\)/,
    ],
    ['zero attempts', 'wk', { retry: { maxAttempts: 0 } }, /retry.maxAttempts/],
    ['a non-http endpoint', 'wk', { endpoint: 'ftp://host' }, /endpoint must use http or https/],
    ['a relative endpoint', 'wk', { endpoint: 'ingest:8080' }, /endpoint must use http or https|absolute/],
  ])('refuses %s with a ConfigurationError naming the option', (_, writeKey, options, message) => {
    expect(() => resolveSettings(writeKey, options)).toThrow(ConfigurationError);
    expect(() => resolveSettings(writeKey, options)).toThrow(message);
  });

  it('reports the version package.json publishes', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(LIBRARY_VERSION).toBe(manifest.version);
  });
});
