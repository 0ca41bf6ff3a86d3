import { ValidationError } from 'class-validator';

/** One problem with a request, naming its field (dotted for nested fields). */
export interface FieldError {
  field: string;
  reason: string;
}

/** class-validator's error tree as a flat list, for the admin request DTOs validated with it. */
export function flattenValidationErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    // The first broken rule of a field is the one to fix; the rest are usually its echoes.
    const [first] = Object.values(e.constraints ?? {});
    const own = first ? [{ field, reason: first }] : [];
    return [...own, ...flattenValidationErrors(e.children ?? [], field)];
  });
}
