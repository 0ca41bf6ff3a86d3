import type { FieldChange, Plan, PlanStep } from './plan';

const SIGNS = { create: '+', update: '~', delete: '-' } as const;
const NONE = '(none)';

/** One line naming a step, as the plan and the apply report print it. */
export function describeStep(step: PlanStep): string {
  return `${SIGNS[step.action]} ${step.action} ${step.kind} "${step.id}"`;
}

/**
 * The plan as a person reads it: a summary, each step with the fields it sets or changes, and
 * how secrets were compared. It prints only what `planApply` made printable (secrets masked),
 * never a step's body.
 */
export function renderPlan(plan: Plan): string {
  const count = (action: PlanStep['action']) => plan.steps.filter((s) => s.action === action).length;
  const lines = [
    `Plan: ${count('create')} to create, ${count('update')} to update, ${count('delete')} to delete, ${plan.unchanged} unchanged.`,
  ];
  for (const step of plan.steps) {
    lines.push(describeStep(step));
    if (step.action !== 'delete') lines.push(...step.fields.map((f) => `    ${fieldLine(f, step.action)}`));
  }
  if (plan.steps.length === 0) lines.push('Nothing to do: the console already matches the file.');
  lines.push(...secretsNote(plan));
  return lines.join('\n') + '\n';
}

function fieldLine(field: FieldChange, action: 'create' | 'update'): string {
  if (action === 'create') return `${field.path}: ${field.after}`;
  if (field.resent) return `${field.path}: ${field.after} (re-sent: masks cannot show a change)`;
  return `${field.path}: ${field.before ?? NONE} → ${field.after ?? NONE}`;
}

function secretsNote(plan: Plan): string[] {
  if (plan.unverifiedSecrets.length === 0) return [];
  return [
    '',
    'The console shows secrets masked (their last 4 characters at most). Updates send every secret in the',
    'file; these were left as stored because their masks match the file, so a change that keeps the last',
    '4 characters would not be seen. --resend-secrets sends them anyway:',
    ...plan.unverifiedSecrets.map((s) => `    ${s.kind} "${s.id}" ${s.path}`),
  ];
}
