import { applyPlan, renderOutcome } from './apply-plan';
import { parseCliArgs, USAGE } from './cli-args';
import { ConsoleApiError, ConsoleClient } from './console-client';
import { planApply } from './plan';
import { describeStep, renderPlan } from './render-plan';
import { readWorkspaceFile } from './workspace-file';

/** Exit codes: done or nothing to do; bad file, unreachable console or failed apply; bad command line. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export interface Output {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** `workspace apply`: validate the file, read the console, print the plan, then apply it unless dry. */
export async function runWorkspaceCommand(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: Output,
): Promise<number> {
  const args = parseCliArgs(argv, env);
  if ('help' in args) return (io.out(USAGE), EXIT.ok);
  if ('usageError' in args) return (io.err(`${args.usageError}\n\n${USAGE}`), EXIT.usage);
  const { options } = args;

  const file = await readWorkspaceFile(options.file);
  if (!('workspace' in file)) {
    io.err(`${options.file} cannot be applied:\n${file.problems.map((p) => `  - ${p}`).join('\n')}\n`);
    return EXIT.failed;
  }
  const api = new ConsoleClient(options.url, options.token);
  try {
    const plan = planApply(await api.read(), file.workspace, { resendSecrets: options.resendSecrets });
    io.out(renderPlan(plan));
    if (plan.steps.length === 0) return EXIT.ok;
    if (options.dryRun) return (io.out('\nDry run: nothing was applied.\n'), EXIT.ok);
    io.out('\nApplying:\n');
    const outcome = await applyPlan(plan, api, (step) => io.out(`  done ${describeStep(step)}\n`));
    (outcome.failure ? io.err : io.out)(renderOutcome(outcome));
    return outcome.failure ? EXIT.failed : EXIT.ok;
  } catch (error) {
    if (!(error instanceof ConsoleApiError)) throw error;
    io.err(`cannot read the workspace: ${error.message}\n`);
    return EXIT.failed;
  }
}
