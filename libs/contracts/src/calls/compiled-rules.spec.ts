import {
  getMetadataStorage,
  IsDefined,
  IsNotEmpty,
  IsOptional,
  IsString,
  registerDecorator,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  ValidatorConstraintInterface,
  validateSync,
} from 'class-validator';
import { CALL_TYPES, CallType } from './call';
import { CALL_CLASS } from './call-rules';
import { flattenValidationErrors, validateCall } from './call-validation';
import { compileRules } from './compiled-rules';

/** mulberry32: a small seeded generator, so every run checks the same cases. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ABSENT = Symbol('absent');
const GOOD_IDS: unknown[] = ['u1', 'x', '42', 'ünïcode-✓', ' ', 'x'.repeat(512), '😀'.repeat(512)];
const BAD_IDS: unknown[] = [ABSENT, undefined, null, '', 42, 0, true, false, {}, [], ['u1'], 'x'.repeat(513), '😀'.repeat(513)];
const GOOD_STRINGS: unknown[] = ['Signed Up', 'e', 'x'.repeat(600), ' '];
const BAD_STRINGS: unknown[] = [ABSENT, null, '', 7, true, {}, ['e']];
const GOOD_OBJECTS: unknown[] = [{}, { a: 1 }, { nested: { deep: [1, 2] } }, new Date(0)];
const BAD_OBJECTS: unknown[] = [null, [], [1], 'all', 0, 1, true, ''];
const GOOD_TIMESTAMPS: unknown[] = [
  '2024-05-01T12:34:56.789Z',
  '2006-01-02T15:04:05-0700',
  '2024-05-01T12:34:56+02:00',
  '2024-05-01 12:34',
  '2024-02-29T00:00:00Z',
];
const BAD_TIMESTAMPS: unknown[] = [null, 'yesterday', '', '2024-02-31T00:00:00Z', '2024-13-01T00:00:00Z', 1714566896789, {}, []];
const BAD_TYPES: unknown[] = [ABSENT, null, 'purchase', 'Track', 1, {}, ['track']];

/** Every field some call type has a rule for, with values that pass it and values that do not. */
const FIELDS: Record<string, { good: unknown[]; bad: unknown[] }> = {
  type: { good: [...CALL_TYPES], bad: BAD_TYPES },
  userId: { good: GOOD_IDS, bad: BAD_IDS },
  anonymousId: { good: GOOD_IDS, bad: BAD_IDS },
  messageId: { good: GOOD_IDS, bad: BAD_IDS },
  previousId: { good: GOOD_IDS, bad: BAD_IDS },
  groupId: { good: GOOD_IDS, bad: BAD_IDS },
  event: { good: GOOD_STRINGS, bad: BAD_STRINGS },
  name: { good: GOOD_STRINGS, bad: [null, 7, true, {}, ['n']] },
  category: { good: GOOD_STRINGS, bad: [null, 7, true, {}, ['c']] },
  context: { good: GOOD_OBJECTS, bad: BAD_OBJECTS },
  integrations: { good: GOOD_OBJECTS, bad: BAD_OBJECTS },
  properties: { good: GOOD_OBJECTS, bad: BAD_OBJECTS },
  traits: { good: GOOD_OBJECTS, bad: BAD_OBJECTS },
  timestamp: { good: GOOD_TIMESTAMPS, bad: BAD_TIMESTAMPS },
  sentAt: { good: GOOD_TIMESTAMPS, bad: BAD_TIMESTAMPS },
  originalTimestamp: { good: GOOD_TIMESTAMPS, bad: BAD_TIMESTAMPS },
};
const FIELD_NAMES = Object.keys(FIELDS);

/** The smallest valid message of each type, which the generator then breaks in a few places. */
const VALID_BASE: Record<CallType, Record<string, unknown>> = {
  identify: { type: 'identify', userId: 'u1' },
  track: { type: 'track', anonymousId: 'a1', event: 'Signed Up' },
  page: { type: 'page', userId: 'u1' },
  screen: { type: 'screen', anonymousId: 'a1' },
  group: { type: 'group', userId: 'u1', groupId: 'g1' },
  alias: { type: 'alias', userId: 'u2', previousId: 'u1' },
};

function generateMessage(random: () => number, type: CallType): Record<string, unknown> {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
  const message: Record<string, unknown> = { ...VALID_BASE[type] };
  // A quarter stay as they are; the rest get up to five changes, each a good value, a bad value or a removal.
  const changes = random() < 0.25 ? 0 : 1 + Math.floor(random() * 5);
  for (let i = 0; i < changes; i++) {
    const field = pick(FIELD_NAMES);
    const roll = random();
    const value = roll < 0.15 ? ABSENT : roll < 0.6 ? pick(FIELDS[field].good) : pick(FIELDS[field].bad);
    if (value === ABSENT) delete message[field];
    else message[field] = value;
  }
  return message;
}

/** The fields the type's decorators put rules on, as class-validator lists them. */
function ruledFieldsOf(type: CallType): string[] {
  const storage = getMetadataStorage();
  const rules = storage.getTargetValidationMetadatas(CALL_CLASS[type], '', false, false);
  return Object.keys(storage.groupByPropertyName(rules));
}

/** A validator that answers with whatever the value is: truthy passes, falsy fails, in class-validator. */
function ReturnsItsValue() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'returnsItsValue',
      target: target.constructor,
      propertyName,
      validator: { validate: (value: unknown) => value as boolean },
    });
}

/** A class used as a constraint without @ValidatorConstraint: class-validator runs no validator for it. */
class NotAConstraint {}

const OPTIONS = { forbidUnknownValues: false, validationError: { target: false } };
const asInstanceOf = (type: CallType, raw: object) =>
  Object.assign(Object.create(CALL_CLASS[type].prototype) as object, raw);

describe('compileRules', () => {
  const CASES_PER_TYPE = 1500;

  it.each(CALL_TYPES)('accepts exactly the %s messages class-validator accepts', (type) => {
    const random = seededRandom(0x5eed + CALL_TYPES.indexOf(type));
    const passes = compileRules(CALL_CLASS[type]);
    const mismatches: object[] = [];
    const failedFields = new Set<string>();
    let accepted = 0;
    for (let i = 0; i < CASES_PER_TYPE; i++) {
      const instance = asInstanceOf(type, generateMessage(random, type));
      const errors = validateSync(instance, OPTIONS);
      errors.forEach((e) => failedFields.add(e.property));
      if (passes(instance) !== (errors.length === 0)) mismatches.push(instance);
      if (errors.length === 0) accepted++;
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
    // Not vacuous: both answers are common, and every field with a rule was broken somewhere.
    expect(accepted).toBeGreaterThan(CASES_PER_TYPE * 0.2);
    expect(accepted).toBeLessThan(CASES_PER_TYPE * 0.8);
    expect([...failedFields].sort()).toEqual(ruledFieldsOf(type).sort());
  });

  it('leaves validateCall answering exactly what class-validator answers', () => {
    const random = seededRandom(0xca11);
    for (let i = 0; i < 3000; i++) {
      const type = CALL_TYPES[i % CALL_TYPES.length];
      const raw = generateMessage(random, type);
      const calledType = raw.type as CallType;
      if (!CALL_TYPES.includes(calledType)) continue;
      const expected = flattenValidationErrors(validateSync(asInstanceOf(calledType, raw), OPTIONS));
      expect(validateCall(raw)).toEqual(expected);
    }
  });

  // The call classes always pair IsDefined with IsString, and never return anything but booleans;
  // these small classes pin down the executor semantics that the call classes cannot tell apart.
  class Defined {
    @IsDefined() value?: unknown;
  }
  class OptionalDefined {
    @IsOptional() @IsDefined() value?: unknown;
  }
  class TwoConditions {
    @ValidateIf((o: TwoConditions) => o.flag as boolean)
    @ValidateIf((_o: object, value: unknown) => value !== 0)
    @IsNotEmpty()
    value?: unknown;
    flag?: unknown;
  }
  class Truthy {
    @ReturnsItsValue() value?: unknown;
  }
  class Unregistered {
    @Validate(NotAConstraint) value?: unknown;
  }

  it.each([
    ['IsDefined alone', Defined],
    ['IsOptional before IsDefined', OptionalDefined],
    ['two ValidateIf conditions', TwoConditions],
    ['a validator returning non-booleans and promises', Truthy],
    ['a constraint class without @ValidatorConstraint', Unregistered],
  ])('answers as class-validator does for %s', (_name, cls: new () => object) => {
    const passes = compileRules(cls);
    const values: unknown[] = [ABSENT, undefined, null, '', 'a', 0, 1, false, true, {}, [], Promise.resolve(false)];
    for (const value of values) {
      for (const flag of [ABSENT, true, false, 1, 0, 'yes']) {
        const instance = Object.assign(new cls(), {
          ...(value === ABSENT ? {} : { value }),
          ...(flag === ABSENT ? {} : { flag }),
        });
        expect([value, flag, passes(instance)]).toEqual([value, flag, validateSync(instance, OPTIONS).length === 0]);
      }
    }
  });

  it('refuses to compile rules it does not model', () => {
    @ValidatorConstraint({ async: true })
    class AsyncCheck implements ValidatorConstraintInterface {
      validate() {
        return Promise.resolve(true);
      }
    }
    class Child {
      @IsString() name!: string;
    }
    class WithNested {
      @ValidateNested() child!: Child;
    }
    class WithEach {
      @IsString({ each: true }) tags!: string[];
    }
    class WithAsync {
      @Validate(AsyncCheck) value!: string;
    }
    expect(() => compileRules(WithNested)).toThrow(/'nestedValidation' rule/);
    expect(() => compileRules(WithEach)).toThrow(/'each'/);
    expect(() => compileRules(WithAsync)).toThrow(/async validator/);
  });
});
