import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface ProgramRun {
  /** What a developer must install when `command` is missing, e.g. "Python 3 (python3)". */
  toolchain: string;
  cwd?: string;
  timeoutMs?: number;
}

/**
 * Runs an SDK's program or toolchain step and returns its stdout. A missing toolchain fails
 * with a message saying what to install, so a conformance case never passes without running.
 */
export async function runProgram(command: string, args: string[], run: ProgramRun): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, {
      cwd: run.cwd,
      timeout: run.timeoutMs ?? 240_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const e = error as { code?: string; stdout?: string; stderr?: string; message: string };
    if (e.code === 'ENOENT')
      throw new Error(
        `${run.toolchain} is not installed (${command} not found): this conformance case cannot run`,
      );
    throw new Error(
      `${command} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`,
    );
  }
}

/**
 * Runs `step` (a venv install, a Maven build) only when `inputs` changed since it last succeeded,
 * as recorded in `stampPath`; the slow set-up happens once per machine and pin.
 */
export async function onceForInputs(
  stampPath: string,
  inputs: string[],
  step: () => Promise<void>,
): Promise<void> {
  const hash = createHash('sha256');
  for (const input of inputs) hash.update(readFileSync(input));
  const fingerprint = hash.digest('hex');
  if (existsSync(stampPath) && readFileSync(stampPath, 'utf8') === fingerprint) return;
  await step();
  writeFileSync(stampPath, fingerprint);
}
