import 'reflect-metadata';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, schemaRef } from '@switchyard/contracts';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  Equals,
  IsArray,
  IsBoolean,
  IsEmpty,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  Validate,
  ValidateNested,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from '@switchyard/contracts/class-validator';

/** Bounds that keep one destination's rules cheap to evaluate on every call. */
export const MAX_FILTER_RULES = 20;
/** And / or / not inside one another, at most. */
export const MAX_CONDITION_NESTING = 5;
/** Values in one list (`in`, the property lists, the conditions of an and / or). */
export const MAX_FILTER_LIST = 100;

/** `type`, `event`, or a dotted path under `properties.`, `traits.` or `context.`. */
export const FILTER_FIELD = /^(type|event|(properties|traits|context)(\.[^.\s]+)+)$/;
const RULE_NAME = /^[A-Za-z0-9_. -]{1,64}$/;

export const CONDITION_OPERATORS = ['equals', 'in', 'exists', 'prefix', 'gt', 'gte', 'lt', 'lte'] as const;
export const FILTER_ACTIONS = [
  'drop',
  'sample',
  'allowProperties',
  'allowTraits',
  'removeProperties',
  'removeTraits',
] as const;
export type FilterActionName = (typeof FILTER_ACTIONS)[number];

/*
 * Each field's type check is its last decorator: the validator reports a field's rules
 * bottom-up, and only the first is shown, so "must be a number" comes before a range.
 */

const COMBINATORS = ['and', 'or', 'not'] as const;
const NUMBER = { allowNaN: false, allowInfinity: false };
const SCALAR_SCHEMA = { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] };

const isScalar = (value: unknown) => ['string', 'number', 'boolean'].includes(typeof value);

@ValidatorConstraint({ name: 'scalar' })
class ScalarValue implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return Array.isArray(value) ? value.every(isScalar) : isScalar(value);
  }
  defaultMessage({ value }: ValidationArguments): string {
    return Array.isArray(value)
      ? 'must list strings, numbers or booleans'
      : 'must be a string, number or boolean';
  }
}

/** Counts the keys of `object` among `names`: a condition holds one operator, an action one verb. */
const presentKeys = (object: object, names: readonly string[]) =>
  names.filter((name) => (object as Record<string, unknown>)[name] !== undefined);

@ValidatorConstraint({ name: 'oneOperator' })
class OneOperator implements ValidatorConstraintInterface {
  validate(_field: unknown, { object }: ValidationArguments): boolean {
    return presentKeys(object, CONDITION_OPERATORS).length === 1;
  }
  defaultMessage(): string {
    return `a condition needs exactly one of ${CONDITION_OPERATORS.join(', ')}`;
  }
}

@ValidatorConstraint({ name: 'oneAction' })
class OneAction implements ValidatorConstraintInterface {
  validate(action: unknown): boolean {
    return typeof action === 'object' && action !== null && presentKeys(action, FILTER_ACTIONS).length === 1;
  }
  defaultMessage(): string {
    return `must hold exactly one of ${FILTER_ACTIONS.join(', ')}`;
  }
}

@ValidatorConstraint({ name: 'uniqueRuleNames' })
class UniqueRuleNames implements ValidatorConstraintInterface {
  validate(rules: unknown): boolean {
    return duplicateNames(rules).length === 0;
  }
  defaultMessage({ value }: ValidationArguments): string {
    return `rule names must be unique: "${duplicateNames(value)[0]}" is used twice`;
  }
}

function duplicateNames(rules: unknown): string[] {
  if (!Array.isArray(rules)) return [];
  const names = rules
    .map((r: unknown) => (r as { name?: unknown } | null)?.name)
    .filter((n) => typeof n === 'string');
  return names.filter((n, i) => names.indexOf(n) !== i);
}

/** A test of one field of the call: exactly one operator is set. */
export class FieldCondition {
  @ApiProperty({
    pattern: FILTER_FIELD.source,
    description: '`type`, `event`, or a dotted path under `properties.`, `traits.` or `context.`.',
  })
  @Matches(FILTER_FIELD, {
    message: 'must be type, event, or a dotted path under properties., traits. or context.',
  })
  @Validate(OneOperator)
  @IsString({ message: 'must be a string' })
  field!: string;

  @ApiPropertyOptional({ ...SCALAR_SCHEMA, description: 'The field holds exactly this value.' })
  @IsOptional()
  @Validate(ScalarValue)
  equals?: string | number | boolean;

  @ApiPropertyOptional({
    type: 'array',
    items: SCALAR_SCHEMA,
    minItems: 1,
    maxItems: MAX_FILTER_LIST,
    description: 'The field holds one of these values.',
  })
  @IsOptional()
  @ArrayMinSize(1, { message: 'must list at least one value' })
  @ArrayMaxSize(MAX_FILTER_LIST, { message: `may list at most ${MAX_FILTER_LIST} values` })
  @Validate(ScalarValue)
  @IsArray({ message: 'must be a list' })
  in?: Array<string | number | boolean>;

  @ApiPropertyOptional({ description: 'true: the field is present and not null; false: it is not.' })
  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  exists?: boolean;

  @ApiPropertyOptional({ description: 'The field is a string starting with this.' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  prefix?: string;

  @ApiPropertyOptional({ description: 'The field is a number greater than this.' })
  @IsOptional()
  @IsNumber(NUMBER, { message: 'must be a number' })
  gt?: number;

  @ApiPropertyOptional({ description: 'The field is a number greater than or equal to this.' })
  @IsOptional()
  @IsNumber(NUMBER, { message: 'must be a number' })
  gte?: number;

  @ApiPropertyOptional({ description: 'The field is a number less than this.' })
  @IsOptional()
  @IsNumber(NUMBER, { message: 'must be a number' })
  lt?: number;

  @ApiPropertyOptional({ description: 'The field is a number less than or equal to this.' })
  @IsOptional()
  @IsNumber(NUMBER, { message: 'must be a number' })
  lte?: number;
}

/** By name: the condition classes refer to one another before all of them are defined. */
const conditionSchema = () => ({
  oneOf: ['FieldCondition', 'AllConditions', 'AnyCondition', 'NotCondition'].map((name) => ({
    $ref: schemaRef(name),
  })),
});

/** Every condition in the list holds. */
export class AllConditions {
  @ApiProperty({ type: 'array', items: conditionSchema(), minItems: 1, maxItems: MAX_FILTER_LIST })
  @ArrayMinSize(1, { message: 'must list at least one condition' })
  @ArrayMaxSize(MAX_FILTER_LIST, { message: `may list at most ${MAX_FILTER_LIST} conditions` })
  @ValidateNested({ each: true, message: 'must list condition objects' })
  @IsArray({ message: 'must be a list of conditions' })
  and!: FilterCondition[];
}

/** At least one condition in the list holds. */
export class AnyCondition {
  @ApiProperty({ type: 'array', items: conditionSchema(), minItems: 1, maxItems: MAX_FILTER_LIST })
  @ArrayMinSize(1, { message: 'must list at least one condition' })
  @ArrayMaxSize(MAX_FILTER_LIST, { message: `may list at most ${MAX_FILTER_LIST} conditions` })
  @ValidateNested({ each: true, message: 'must list condition objects' })
  @IsArray({ message: 'must be a list of conditions' })
  or!: FilterCondition[];
}

/** The condition does not hold. */
export class NotCondition {
  @ApiProperty(conditionSchema())
  @ValidateNested({ message: 'must be a condition object' })
  not!: FilterCondition;
}

export type FilterCondition = FieldCondition | AllConditions | AnyCondition | NotCondition;

const TOO_DEEP = `conditions may nest at most ${MAX_CONDITION_NESTING} levels of and / or / not`;

/** What an and / or / not nested past the bound becomes: refused at its own path, its content not read. */
class NestedTooDeep {
  @IsEmpty({ message: TOO_DEEP }) and?: true;
  @IsEmpty({ message: TOO_DEEP }) or?: true;
  @IsEmpty({ message: TOO_DEEP }) not?: true;
}

/**
 * Plain input → condition instances for the validator. The operator keys decide the class (a
 * condition has no `kind` field to dispatch on), and the walk stops at the nesting bound, so a
 * hostile body cannot make it recurse without end.
 */
function toCondition(value: unknown, nesting: number): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const plain = value as Record<string, unknown>;
  const combinator = COMBINATORS.find((key) => plain[key] !== undefined);
  if (!combinator) return copyInto(new FieldCondition(), plain);
  if (nesting >= MAX_CONDITION_NESTING) return copyInto(new NestedTooDeep(), { [combinator]: true });
  const inner = plain[combinator];
  const next =
    combinator === 'not'
      ? toCondition(inner, nesting + 1)
      : Array.isArray(inner)
        ? inner.map((c) => toCondition(c, nesting + 1))
        : inner;
  const target = { and: new AllConditions(), or: new AnyCondition(), not: new NotCondition() }[combinator];
  return copyInto(target, { ...plain, [combinator]: next });
}

/** Own data properties only: a `__proto__` key in a JSON body stays a key (and is refused as unknown). */
function copyInto<T extends object>(target: T, plain: Record<string, unknown>): T {
  for (const key of Object.keys(plain)) {
    Object.defineProperty(target, key, {
      value: plain[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return target;
}

/** What a rule does to a matching call: exactly one of these is set. */
export class FilterAction {
  @ApiPropertyOptional({ enum: [true], description: 'Do not send the call to this destination.' })
  @IsOptional()
  @Equals(true, { message: 'must be true' })
  drop?: true;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 100,
    description:
      'Send this percentage of matching calls. The decision is a hash of the messageId and the rule name: a replay decides the same.',
  })
  @IsOptional()
  @Min(0, { message: 'must be a percentage from 0 to 100' })
  @Max(100, { message: 'must be a percentage from 0 to 100' })
  @IsNumber(NUMBER, { message: 'must be a number' })
  sample?: number;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_FILTER_LIST,
    description: 'Keep only these properties.',
  })
  @IsOptional()
  @ArrayMaxSize(MAX_FILTER_LIST, { message: `may list at most ${MAX_FILTER_LIST} names` })
  @IsString({ each: true, message: 'must list names (strings)' })
  @IsNotEmpty({ each: true, message: 'must not list an empty name' })
  @IsArray({ message: 'must be a list of names' })
  allowProperties?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: MAX_FILTER_LIST, description: 'Keep only these traits.' })
  @IsOptional()
  @ArrayMaxSize(MAX_FILTER_LIST, { message: `may list at most ${MAX_FILTER_LIST} names` })
  @IsString({ each: true, message: 'must list names (strings)' })
  @IsNotEmpty({ each: true, message: 'must not list an empty name' })
  @IsArray({ message: 'must be a list of names' })
  allowTraits?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: MAX_FILTER_LIST, description: 'Remove these properties.' })
  @IsOptional()
  @ArrayMaxSize(MAX_FILTER_LIST, { message: `may list at most ${MAX_FILTER_LIST} names` })
  @IsString({ each: true, message: 'must list names (strings)' })
  @IsNotEmpty({ each: true, message: 'must not list an empty name' })
  @IsArray({ message: 'must be a list of names' })
  removeProperties?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: MAX_FILTER_LIST, description: 'Remove these traits.' })
  @IsOptional()
  @ArrayMaxSize(MAX_FILTER_LIST, { message: `may list at most ${MAX_FILTER_LIST} names` })
  @IsString({ each: true, message: 'must list names (strings)' })
  @IsNotEmpty({ each: true, message: 'must not list an empty name' })
  @IsArray({ message: 'must be a list of names' })
  removeTraits?: string[];
}

/** One named rule of a destination: when the call matches `if` (every call when absent), `then` applies. */
@ApiExtraModels(FieldCondition, AllConditions, AnyCondition, NotCondition)
export class FilterRule {
  @ApiProperty({
    pattern: RULE_NAME.source,
    description: 'Names the rule in metrics and in the message timeline; unique within the destination.',
  })
  @Matches(RULE_NAME, { message: 'may hold letters, digits, space, dot, dash and underscore (1-64)' })
  @IsString({ message: 'must be a string' })
  name!: string;

  @ApiPropertyOptional({ ...conditionSchema(), description: 'When the rule applies; absent: to every call.' })
  @IsOptional()
  @Transform(({ value }) => toCondition(value, 0))
  @ValidateNested({ message: 'must be a condition object' })
  if?: FilterCondition;

  @ApiProperty({ type: () => FilterAction })
  @Validate(OneAction)
  @ValidateNested()
  @Transform(({ value }) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? copyInto(new FilterAction(), value as Record<string, unknown>)
      : value,
  )
  then!: FilterAction;
}

/** A destination's `filters` field: its description, its bounds, and each rule checked as a FilterRule. */
export function FilterRules(): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    // Applied first, so reported first (see above).
    IsArray({ message: 'must be a list of rules' }),
    ApiPropertyOptional({
      type: () => [FilterRule],
      maxItems: MAX_FILTER_RULES,
      description:
        'Rules applied in order to each call before it is sent here; a drop or an unsampled call stops at its rule.',
    }),
    IsOptional(),
    ArrayMaxSize(MAX_FILTER_RULES, { message: `may hold at most ${MAX_FILTER_RULES} rules` }),
    Validate(UniqueRuleNames),
    ValidateNested({ each: true, message: 'must list rule objects' }),
    Type(() => FilterRule),
  ];
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}
