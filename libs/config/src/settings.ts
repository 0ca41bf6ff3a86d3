import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from '@switchyard/contracts/class-validator';

/** A configuration value broke a rule; the message names the variable or field and the rule. Stops start-up. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function describeValidationErrors(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((rule) => `${field}: ${rule}`);
    return [...own, ...describeValidationErrors(e.children ?? [], field)];
  });
}

/**
 * Builds a typed object from plain values (a parsed file) and validates it with the class's
 * decorators. Throws ConfigError listing every broken rule, so an operator fixes them all in one go.
 */
export function validateSettings<T extends object>(
  cls: new () => T,
  plain: Record<string, unknown>,
  what: string,
): T {
  const instance = plainToInstance(cls, plain);
  const errors = validateSync(instance, { forbidUnknownValues: true, whitelist: false });
  if (errors.length > 0) {
    throw new ConfigError(`invalid ${what}:\n  - ${describeValidationErrors(errors).join('\n  - ')}`);
  }
  return instance;
}
