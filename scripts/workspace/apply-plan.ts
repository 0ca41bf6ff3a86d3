import { ConsoleApiError, WorkspaceApi } from './console-client';
import type { Plan, PlanStep } from './plan';
import { describeStep } from './render-plan';

/** What applying got done: the steps that took effect, and the one that failed with those not tried. */
export interface ApplyOutcome {
  applied: PlanStep[];
  failure?: { step: PlanStep; error: ConsoleApiError };
  notApplied: PlanStep[];
}

/**
 * Applies the plan's steps in order and stops at the first one the console refuses: each later
 * step may rely on it (a destination on the source created before it). Each step the console
 * accepted is reported as it lands, so an interrupted run still shows what it changed.
 */
export async function applyPlan(
  plan: Plan,
  api: WorkspaceApi,
  onApplied: (step: PlanStep) => void = () => undefined,
): Promise<ApplyOutcome> {
  const applied: PlanStep[] = [];
  for (const [index, step] of plan.steps.entries()) {
    try {
      await applyStep(step, api);
    } catch (error) {
      if (!(error instanceof ConsoleApiError)) throw error;
      return { applied, failure: { step, error }, notApplied: plan.steps.slice(index + 1) };
    }
    applied.push(step);
    onApplied(step);
  }
  return { applied, notApplied: [] };
}

function applyStep(step: PlanStep, api: WorkspaceApi): Promise<void> {
  switch (step.action) {
    case 'create':
      return api.create(step.kind, step.body);
    case 'update':
      return api.replace(step.kind, step.id, step.body, step.etag);
    case 'delete':
      return api.remove(step.kind, step.id, step.etag);
  }
}

/** The closing lines of an apply: done, or what failed, why, and what was and was not applied. */
export function renderOutcome(outcome: ApplyOutcome): string {
  if (!outcome.failure) return `Applied ${outcome.applied.length} change(s).\n`;
  const { step, error } = outcome.failure;
  const lines = [
    `Failed: ${describeStep(step)}: ${error.message}`,
    ...error.problems.map((p) => `    ${p}`),
    `Applied before the failure:${outcome.applied.length === 0 ? ' nothing' : ''}`,
    ...outcome.applied.map((s) => `    ${describeStep(s)}`),
    'Not applied:',
    ...[step, ...outcome.notApplied].map((s) => `    ${describeStep(s)}`),
  ];
  return lines.join('\n') + '\n';
}
