import { validateSync, ValidationError } from 'class-validator';
import { CALL_TYPES, CallType } from './call';
import { CALL_CLASS } from './call-rules';
import { compileRules, RuleCheck } from './compiled-rules';
import { cacheValidationMetadata } from './validation-metadata-cache';

cacheValidationMetadata();

/**
 * Each call type's rules compiled into a plain check, from the same decorators class-validator
 * reads: class-validator's executor cost about 15 % of ingest's CPU at 26k events/s although
 * almost every message is valid, so valid messages are accepted without it. Compiled at load, so
 * a rule the check cannot model fails start-up instead of being answered wrongly.
 */
const PASSES_RULES = Object.fromEntries(
  CALL_TYPES.map((type) => [type, compileRules(CALL_CLASS[type])]),
) as Record<CallType, RuleCheck>;

export interface FieldError {
  field: string;
  reason: string;
}

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    // The first broken rule of a field is the one to fix; the rest are usually its echoes.
    const [first] = Object.values(e.constraints ?? {});
    const own = first ? [{ field, reason: first }] : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/**
 * Checks one raw message against the Tracking API's rules for its type. Returns the problems,
 * each naming its field; an empty list means the message is valid.
 */
export function validateCall(raw: unknown): FieldError[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return [{ field: '', reason: 'each message must be a JSON object' }];
  }
  const type = (raw as { type?: unknown }).type;
  const cls = CALL_CLASS[type as CallType];
  if (!cls || !Object.hasOwn(CALL_CLASS, type as string)) {
    return [{ field: 'type', reason: `type must be one of: ${CALL_TYPES.join(', ')}` }];
  }
  // The compiled check reads the message as it is: no copy, nothing for the collector per message.
  if (PASSES_RULES[type as CallType](raw)) return [];
  // Only an invalid message gets here: class-validator words its errors, so they are unchanged.
  // It needs an instance of the rule class; a prototype-linked copy does (class-transformer's
  // deep copy cost a tenth of ingest's CPU for nothing, since no rule here converts or nests).
  const instance = Object.assign(Object.create(cls.prototype) as object, raw);
  // A message's own "constructor" key would hide the class, and class-validator, finding no rules
  // for whatever it names, would pass the message unchecked. It is no Tracking API field anyway.
  if (Object.hasOwn(raw, 'constructor')) delete (instance as { constructor?: unknown }).constructor;
  return flatten(validateSync(instance, { forbidUnknownValues: false, validationError: { target: false } }));
}

/** The same flattening, for the other contracts' validators (deletions, audience syncs). */
export { flatten as flattenValidationErrors };
