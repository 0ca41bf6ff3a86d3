import { ValidationError } from './class-validator';

/** One problem with a request, naming its field (dotted for nested fields, `[n]` for list positions). */
export interface FieldError {
  field: string;
  reason: string;
}

/** class-validator's error tree as a flat list, for the request classes validated with it. */
export function flattenValidationErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = fieldPath(prefix, e.property);
    // The first broken rule of a field is the one to fix; the rest are usually its echoes.
    const [rule, message] = Object.entries(e.constraints ?? {})[0] ?? [];
    const own = rule ? [{ field, reason: rule === 'whitelistValidation' ? 'unknown field' : message }] : [];
    return [...own, ...flattenValidationErrors(e.children ?? [], field)];
  });
}

function fieldPath(prefix: string, property: string): string {
  if (/^\d+$/.test(property)) return `${prefix}[${property}]`;
  return prefix ? `${prefix}.${property}` : property;
}
