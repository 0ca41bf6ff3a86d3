import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const repoRoot = join(__dirname, '..');

const children = new Set<ChildProcess>();
// A benchmark that fails half-way must not leave services behind, answering the next run's health checks.
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));

/** Starts a service's compiled main (run `npm run build` first) and resolves when /health/ready answers 200. */
export async function startService(name: 'ingest' | 'router' | 'delivery', env: NodeJS.ProcessEnv, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(repoRoot, 'dist', 'apps', name, 'src', 'main.js')], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', NODE_OPTIONS: `--disable-warning=TimeoutNegativeWarning --max-old-space-size=160 --max-semi-space-size=8 ${process.env.BENCH_NODE_OPTIONS ?? ''}`, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} not ready after 60 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Peak resident set size (VmHWM) of a live process, in MB. */
export function peakRssMb(pid: number | undefined): number {
  if (!pid) return NaN;
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** CPU seconds (user + system) a live process has used. */
export function cpuSeconds(pid: number | undefined): number {
  if (!pid) return NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
