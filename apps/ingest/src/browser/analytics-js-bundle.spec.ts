import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { AnalyticsJsBundle } from './analytics-js-bundle';
import { publicAddress } from './public-address';

/** A package directory shaped like @segment/analytics-next's, holding `standalone` as its bundle. */
function fakePackage(standalone: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-ajs-'));
  mkdirSync(join(dir, 'dist', 'umd'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '9.9.9' }));
  writeFileSync(join(dir, 'dist', 'umd', 'standalone.js'), standalone);
  writeFileSync(join(dir, 'dist', 'umd', 'auto-track.bundle.0123abcd.js'), 'chunk();');
  writeFileSync(join(dir, 'dist', 'umd', 'index.js'), 'not a chunk');
  return dir;
}

const SEGMENT_HOSTS =
  'w.analyticsWriteKey="__WRITE_KEY__";a="https://cdn.segment.com";b="https://cdn.segment.com/analytics.js/v1/";c="https://cdn.segment.com/analytics-next/bundles/";d="api.segment.io/v1";\n//# sourceMappingURL=standalone.js.map';

describe('AnalyticsJsBundle', () => {
  const address = publicAddress('https://events.example.com/seg', { protocol: 'http', host: 'x' });

  it('embeds the write key and puts this ingest wherever the bundle names Segment, escaping both', () => {
    const bundle = new AnalyticsJsBundle(fakePackage(SEGMENT_HOSTS));
    const file = bundle.render('wk-"quoted"', address);
    expect(file.body.toString()).toBe(
      'w.analyticsWriteKey="wk-\\"quoted\\"";a="https://events.example.com/seg";b="https://events.example.com/seg/analytics.js/v1/";' +
        'c="https://events.example.com/seg/analytics-next/bundles/";d="events.example.com/seg/v1";\n',
    );
    expect(gunzipSync(file.gzipped as Buffer)).toEqual(file.body);
    expect(bundle.version).toBe('9.9.9');
  });

  it('serves chunks by their exact file name only', () => {
    const bundle = new AnalyticsJsBundle(fakePackage(SEGMENT_HOSTS));
    expect(bundle.chunk('auto-track.bundle.0123abcd.js')?.body.toString()).toBe('chunk();');
    expect(bundle.chunk('index.js')).toBeUndefined();
    expect(bundle.chunk('../package.json')).toBeUndefined();
  });

  it('stops start-up when the package no longer holds the strings it replaces', () => {
    expect(
      () =>
        new AnalyticsJsBundle(
          fakePackage(SEGMENT_HOSTS.replace('"api.segment.io/v1"', '"api.segment.build/v1"')),
        ),
    ).toThrow(/standalone\.js holds "api\.segment\.io\/v1" 0 times, expected 1/);
  });

  it('finds its strings in the pinned package itself', () => {
    expect(() => new AnalyticsJsBundle()).not.toThrow();
  });
});
