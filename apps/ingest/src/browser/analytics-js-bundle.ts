import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { PublicAddress } from './public-address';

/** The npm package the bundle comes from, at the version package.json pins: no CDN, no internet. */
const PACKAGE = '@segment/analytics-next';

/**
 * Strings of the standalone build that name Segment's hosts, each replaced as Segment's CDN (and
 * its proxy guide) would: the embedded write key, the CDN (settings, lazy chunks, and the
 * fallback when the page's script tag is not https, which the bundle's own detection requires),
 * and the default Tracking API host. Each must occur exactly this often, or the package changed
 * under us and start-up stops.
 */
const PLACEHOLDERS = [
  { text: '"__WRITE_KEY__"', count: 1, value: (writeKey: string) => JSON.stringify(writeKey) },
  {
    text: '"https://cdn.segment.com',
    count: 3,
    value: (_: string, address: PublicAddress) => JSON.stringify(address.baseUrl).slice(0, -1),
  },
  {
    text: '"api.segment.io/v1"',
    count: 1,
    value: (_: string, address: PublicAddress) => JSON.stringify(address.apiHost),
  },
] as const;
type Placeholder = (typeof PLACEHOLDERS)[number];

/** Dropped from the rendered bundle: it would name the map of the unmodified file. */
const SOURCE_MAP_COMMENT = /\n?\/\/# sourceMappingURL=\S+\s*$/;
const CHUNK_FILE = /^[\w-]+\.bundle\.[0-9a-f]+\.js(\.map)?$/;
/** Rendered bundles kept (one per write key and public address; about 150 KB each with its gzip). */
const MAX_RENDERED = 16;

export interface StaticFile {
  body: Buffer;
  gzipped?: Buffer;
}

/**
 * analytics.js as Segment's CDN serves it, from the pinned npm package: the standalone bundle
 * per write key (`/analytics.js/v1/:writeKey/analytics.min.js`) and the chunks it loads lazily
 * (`/analytics-next/bundles/<file>`, beside it on the same host).
 */
export class AnalyticsJsBundle {
  readonly version: string;
  private readonly parts: string[];
  private readonly slots: Placeholder[];
  private readonly chunks = new Map<string, StaticFile>();
  private readonly rendered = new Map<string, StaticFile>();

  constructor(packageDir = dirname(require.resolve(`${PACKAGE}/package.json`))) {
    this.version = (
      JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }
    ).version;
    const umd = join(packageDir, 'dist', 'umd');
    const standalone = readFileSync(join(umd, 'standalone.js'), 'utf8').replace(SOURCE_MAP_COMMENT, '\n');
    ({ parts: this.parts, slots: this.slots } = splitAtPlaceholders(standalone));
    const files = readdirSync(umd);
    for (const file of files.filter((f) => CHUNK_FILE.test(f))) {
      const gzipped = files.includes(`${file}.gz`) ? readFileSync(join(umd, `${file}.gz`)) : undefined;
      this.chunks.set(file, { body: readFileSync(join(umd, file)), gzipped });
    }
  }

  /** The standalone bundle for one source, reaching this ingest at `address`. */
  render(writeKey: string, address: PublicAddress): StaticFile {
    const cacheKey = `${address.baseUrl}\n${writeKey}`;
    const cached = this.rendered.get(cacheKey);
    if (cached) return cached;
    let text = this.parts[0];
    this.slots.forEach((slot, i) => (text += slot.value(writeKey, address) + this.parts[i + 1]));
    const body = Buffer.from(text);
    const file = { body, gzipped: gzipSync(body) };
    if (this.rendered.size >= MAX_RENDERED) this.rendered.clear();
    this.rendered.set(cacheKey, file);
    return file;
  }

  /** A lazily loaded chunk (or its source map), unchanged; undefined for any other name. */
  chunk(file: string): StaticFile | undefined {
    return this.chunks.get(file);
  }
}

/** The bundle's text around each placeholder, and which placeholder sits in each gap. */
function splitAtPlaceholders(source: string): { parts: string[]; slots: Placeholder[] } {
  for (const placeholder of PLACEHOLDERS) {
    const found = source.split(placeholder.text).length - 1;
    if (found !== placeholder.count) {
      throw new Error(
        `${PACKAGE} standalone.js holds ${placeholder.text} ${found} times, expected ${placeholder.count}: check the package version`,
      );
    }
  }
  const pattern = new RegExp(
    PLACEHOLDERS.map((p) => p.text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'),
    'g',
  );
  const parts: string[] = [];
  const slots: Placeholder[] = [];
  let last = 0;
  for (const match of source.matchAll(pattern)) {
    parts.push(source.slice(last, match.index));
    slots.push(PLACEHOLDERS.find((p) => p.text === match[0]) as Placeholder);
    last = match.index + match[0].length;
  }
  parts.push(source.slice(last));
  return { parts, slots };
}
