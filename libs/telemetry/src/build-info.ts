import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Gauge, metric } from './metrics';

/**
 * Switchyard's version from its package.json: the nearest one above this file named
 * "switchyard" (the repository root from source, /app in the image, one level higher for dist/).
 */
export function switchyardVersion(from = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'switchyard' && pkg.version) return pkg.version;
    }
    if (dirname(dir) === dir) return 'unknown';
  }
}

/** Exports `switchyard_build_info{version,commit} 1`, so dashboards and alerts can tell builds apart. */
export function reportBuildInfo(commit: string): void {
  const gauge = metric(
    'switchyard_build_info',
    () =>
      new Gauge({
        name: 'switchyard_build_info',
        help: 'The running build: version from package.json, commit from SWITCHYARD_COMMIT (set when the image is built); always 1',
        labelNames: ['version', 'commit'],
      }),
  );
  gauge.reset();
  gauge.set({ version: switchyardVersion(), commit }, 1);
}
