import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import { IsInt, Max, Min, validateSync, ValidationError } from 'class-validator';

/** A configuration value broke a rule; the message names the field and the rule. Stops start-up. */
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
 * Builds a typed settings object from plain values (defaults already merged with the
 * environment) and validates it with the class's decorators. Throws ConfigError listing every
 * broken rule, so an operator fixes them all in one go.
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

/** A whole-number setting read from `env`, from `min` to `max`; a bad value's message names the variable and the range. */
export function IntSetting(env: string, min: number, max: number): PropertyDecorator {
  return (target, key) => {
    const message = `${String(key)} (${env}) must be a whole number from ${min} to ${max}`;
    for (const decorate of [
      Type(() => Number),
      IsInt({ message }),
      Min(min, { message }),
      Max(max, { message }),
    ])
      decorate(target, key);
  };
}

/** Reads an environment variable as a number, leaving it as the raw string when it is not one so validation can name it. */
export function envNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number | string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  return Number.isFinite(value) ? value : raw;
}

export function envString(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name];
  return raw === undefined || raw === '' ? fallback : raw;
}

export function envBoolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean | string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  return raw;
}
