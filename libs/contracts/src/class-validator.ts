/**
 * The class-validator decorators and checks Switchyard uses, each from its own module. The
 * package's index loads every decorator it has, with validator.js and libphonenumber-js behind
 * them, into every service, for the two dozen used here (what that costs: bench/README.md,
 * "Memory"). Import class-validator through this module; a lint wall
 * (eslint.config.mjs) keeps the index out, and test/footprint checks that no service loads it.
 * The modules' types are the index's (class-validator-modules.d.ts).
 */
import type { ValidationError, ValidatorOptions } from 'class-validator';
import { getFromContainer } from 'class-validator/cjs/container';
import { Validator } from 'class-validator/cjs/validation/Validator';

export type {
  ValidationArguments,
  ValidationError,
  ValidatorConstraintInterface,
  ValidatorOptions,
} from 'class-validator';
export { ArrayMaxSize } from 'class-validator/cjs/decorator/array/ArrayMaxSize';
export { ArrayMinSize } from 'class-validator/cjs/decorator/array/ArrayMinSize';
export { Equals } from 'class-validator/cjs/decorator/common/Equals';
export { IsDefined } from 'class-validator/cjs/decorator/common/IsDefined';
export { IsEmpty } from 'class-validator/cjs/decorator/common/IsEmpty';
export { IsIn } from 'class-validator/cjs/decorator/common/IsIn';
export { IsNotEmpty } from 'class-validator/cjs/decorator/common/IsNotEmpty';
export { IsOptional } from 'class-validator/cjs/decorator/common/IsOptional';
export { NotEquals } from 'class-validator/cjs/decorator/common/NotEquals';
export { Validate, ValidatorConstraint } from 'class-validator/cjs/decorator/common/Validate';
export { ValidateIf } from 'class-validator/cjs/decorator/common/ValidateIf';
export { ValidateNested } from 'class-validator/cjs/decorator/common/ValidateNested';
export { Max } from 'class-validator/cjs/decorator/number/Max';
export { Min } from 'class-validator/cjs/decorator/number/Min';
export { IsISO8601 } from 'class-validator/cjs/decorator/string/IsISO8601';
export { IsUrl, isURL } from 'class-validator/cjs/decorator/string/IsUrl';
export { Matches } from 'class-validator/cjs/decorator/string/Matches';
export { MaxLength } from 'class-validator/cjs/decorator/string/MaxLength';
export { IsArray } from 'class-validator/cjs/decorator/typechecker/IsArray';
export { IsBoolean } from 'class-validator/cjs/decorator/typechecker/IsBoolean';
export { IsInt } from 'class-validator/cjs/decorator/typechecker/IsInt';
export { IsNumber } from 'class-validator/cjs/decorator/typechecker/IsNumber';
export { IsObject } from 'class-validator/cjs/decorator/typechecker/IsObject';
export { IsString } from 'class-validator/cjs/decorator/typechecker/IsString';

/** class-validator's `validateSync(object, options)`, as its index defines it. */
export function validateSync(object: object, options?: ValidatorOptions): ValidationError[] {
  return getFromContainer(Validator).validateSync(object, options);
}
