import {
  getMetadataStorage,
  ValidationArguments,
  ValidationTypes,
  ValidatorConstraintInterface,
} from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type RuleMetadata = ReturnType<Storage['getTargetValidationMetadatas']>[number];

/** True when the object passes every rule of the class it was compiled for. */
export type RuleCheck = (object: object) => boolean;

/** A `@ValidateIf` / `@IsOptional` condition: when one is falsy, the property is not checked at all. */
type Condition = (object: object, value: unknown) => unknown;

/** One validator to run on a property's value, with the rule (decorator) it came from. */
interface Validator {
  rule: RuleMetadata;
  instance: ValidatorConstraintInterface;
}

const SUPPORTED_KINDS: readonly string[] = [
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.IS_DEFINED,
  ValidationTypes.CUSTOM_VALIDATION,
];

/**
 * Compiles a class's class-validator rules, read from the decorators' metadata, into a plain
 * check. It answers what `validateSync(object, { forbidUnknownValues: false })` answers when
 * `object.constructor` is `cls` (no errors, or some); the object itself may be a plain one with
 * the same fields, since no rule here looks at its class. It does so without building class-validator's
 * executor, its ValidationError objects or its per-call rule filtering (about 15 % of ingest's CPU,
 * for messages that are almost all valid). It says nothing about which rule failed: callers ask
 * class-validator for the errors when it returns false.
 *
 * It follows class-validator's ValidationExecutor (0.15): per property, in metadata order, all
 * conditions are evaluated and any falsy one skips the property; otherwise each `@IsDefined`
 * validator, then each other validator, must return a truthy value. A rule it does not model
 * (nested, promise or whitelist rules, `each`, per-rule `validateIf`, async validators) throws
 * here, once, rather than giving a wrong answer on every call.
 */
export function compileRules(cls: abstract new (...args: never[]) => unknown): RuleCheck {
  const storage = getMetadataStorage();
  // The same lookup validateSync makes: no schema, `always` and `strictGroups` false, no groups.
  const rules = storage.getTargetValidationMetadatas(cls, undefined as unknown as string, false, false, undefined);
  const properties = Object.entries(storage.groupByPropertyName(rules)).map(([property, propertyRules]) =>
    compileProperty(property, propertyRules),
  );
  return (object) => properties.every((passes) => passes(object));
}

function compileProperty(property: string, rules: RuleMetadata[]): RuleCheck {
  rules.forEach(assertSupported);
  const conditions = rulesOfKind(rules, ValidationTypes.CONDITIONAL_VALIDATION).map(
    (rule) => rule.constraints[0] as Condition,
  );
  // The executor runs `@IsDefined` first, whatever the decorators' order.
  const validators = [
    ...rulesOfKind(rules, ValidationTypes.IS_DEFINED),
    ...rulesOfKind(rules, ValidationTypes.CUSTOM_VALIDATION),
  ].flatMap(validatorsOf);
  return (object) => {
    const value: unknown = (object as Record<string, unknown>)[property];
    if (!allHold(conditions, object, value)) return true;
    // Stopping at the first failure is safe: a false answer sends the caller to class-validator.
    return validators.every(({ rule, instance }) =>
      instance.validate(value, validationArguments(object, value, rule)),
    );
  };
}

function assertSupported(rule: RuleMetadata): void {
  const where = `${describeTarget(rule.target)}.${rule.propertyName}`;
  if (!SUPPORTED_KINDS.includes(rule.type)) {
    throw new Error(`compileRules: ${where} has a '${rule.type}' rule, which the compiled check does not model`);
  }
  if (rule.type !== ValidationTypes.CONDITIONAL_VALIDATION && (rule.each || rule.validateIf)) {
    throw new Error(`compileRules: ${where} uses 'each' or 'validateIf', which the compiled check does not model`);
  }
}

function describeTarget(target: RuleMetadata['target']): string {
  return typeof target === 'string' ? target : target.name;
}

function rulesOfKind(rules: RuleMetadata[], kind: string): RuleMetadata[] {
  return rules.filter((rule) => rule.type === kind);
}

/** A rule's validators, as the executor finds them: its constraint class's registrations (usually one). */
function validatorsOf(rule: RuleMetadata): Validator[] {
  return getMetadataStorage()
    .getTargetValidatorConstraints(rule.constraintCls)
    .map((constraint) => {
      // validateSync silently skips async validators; refusing them here makes whoever adds one decide.
      if (constraint.async) {
        throw new Error(`compileRules: ${describeTarget(rule.target)}.${rule.propertyName} has an async validator`);
      }
      // `instance` is class-validator's container lookup, getFromContainer(constraintCls), done once here.
      return { rule, instance: constraint.instance };
    });
}

/** Evaluates every condition, as the executor does, and reports whether all of them held. */
function allHold(conditions: Condition[], object: object, value: unknown): boolean {
  let hold = true;
  for (const condition of conditions) if (!condition(object, value)) hold = false;
  return hold;
}

/** The arguments the executor passes a validator (IsIn and MaxLength read `constraints`). */
function validationArguments(object: object, value: unknown, rule: RuleMetadata): ValidationArguments {
  return {
    targetName: object.constructor ? object.constructor.name : (undefined as unknown as string),
    property: rule.propertyName,
    object,
    value,
    constraints: rule.constraints,
  };
}
