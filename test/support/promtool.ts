import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * Runs Prometheus's promtool (Debian's `prometheus` package, installed by
 * scripts/setup-test-tools.sh) from the repository root; a missing binary fails with a clear message.
 */
export function promtool(args: string[], input?: string): { ok: boolean; output: string } {
  const run = spawnSync('promtool', args, { cwd: ROOT, encoding: 'utf8', input, timeout: 60_000 });
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new Error(
      'promtool is not on PATH: install it (Debian/Ubuntu: apt-get install prometheus; scripts/setup-test-tools.sh does) and run again',
    );
  }
  if (run.error) throw run.error;
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}
