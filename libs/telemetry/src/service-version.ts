import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Switchyard's version from its package.json, found by walking up from this file: the same
 * search works from the sources (tests, `npm start`) and from `dist/` in the image.
 */
export function serviceVersion(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === 'switchyard' && manifest.version) return manifest.version;
    } catch {
      // no package.json here (or not ours): keep walking up
    }
    if (dirname(dir) === dir) return 'unknown';
  }
}
