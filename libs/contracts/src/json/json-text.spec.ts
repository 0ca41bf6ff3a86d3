import { parseJson, scanJson } from './json-text';

const scan = (text: string, maxDepth = 64) => scanJson(Buffer.from(text), maxDepth);

/** Nesting of a parsed value, the outermost object or array being 1: what the scan must agree with. */
const depthOf = (value: unknown): number =>
  typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;

const keysOf = (value: unknown): string[] =>
  typeof value === 'object' && value !== null
    ? Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)])
    : [];

describe('scanJson', () => {
  it.each([
    ['a flat object', '{"a":1}', 1],
    ['brackets inside strings do not count', '{"a":"[[[{{{"}', 1],
    ['an escaped quote does not end a string', '{"a":"x\\"[[[","b":[[1]]}', 3],
    ['an escaped backslash before the closing quote', '{"a":"x\\\\","b":[[1]]}', 3],
    ['a long string with escapes', `{"a":"${'x'.repeat(100)}\\"${'y'.repeat(100)}\\\\","b":[1]}`, 2],
    ['arrays and objects', '[{"a":[{"b":{}}]}]', 5],
  ])('measures %s', (_name, text, depth) => {
    expect(scan(text).depth).toBe(depth);
    expect(depthOf(JSON.parse(text))).toBe(depth);
  });

  it('stops counting one past the limit, however deep the text goes', () => {
    expect(scan('['.repeat(1_000_000), 64).depth).toBe(65);
  });

  it.each([
    ['a 20-digit integer', '{"a":12345678901234567890}', true],
    ['a negative one', '[-98765432109876543210]', true],
    ['2^53 - 1 (16 digits)', '[9007199254740991]', true],
    ['15 digits', '[123456789012345]', false],
    ['a 3-digit exponent', '[1e400]', true],
    ['a signed 3-digit exponent', '[1E-400]', true],
    ['a 2-digit exponent', '[1e99]', false],
    ['long digits inside a string', '{"a":"12345678901234567890"}', false],
    ['true, false and null', '[true,false,null,1]', false],
  ])('flags wide numbers: %s', (_name, text, wide) => {
    expect(scan(text).wideNumbers).toBe(wide);
  });

  it.each([
    ['a __proto__ key', '{"__proto__":1}', true],
    ['a prototype key with spaces before the colon', '{"prototype" \n : 1}', true],
    ['an escaped key', '{"\\u005f_proto__":1}', true],
    ['__proto__ as a value', '{"a":"__proto__"}', false],
    ['another 9-letter key', '{"somethin":1}', false],
    ['an escape in a value only', '{"a":"\\n"}', false],
  ])('flags keys that may name a prototype: %s', (_name, text, flagged) => {
    expect(scan(text).prototypeKeys).toBe(flagged);
  });

  it('never misses a nesting level or a prototype key in generated JSON', () => {
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const keys = ['a', '__proto__', 'prototype', 'x"y', 'back\\slash', 'ü', '\u005f_proto__', '[', '{"'];
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 8 || r < 0.3) return [1, 'str"in\\g', true, null, 12.5, '}]'][Math.floor(random() * 6)];
      if (r < 0.6) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, () => [
          keys[Math.floor(random() * keys.length)],
          value(depth + 1),
        ]),
      );
    };
    for (let i = 0; i < 2_000; i++) {
      const text = JSON.stringify(value(0), null, i % 2 ? 1 : undefined);
      const parsed = JSON.parse(text);
      const shape = scan(text);
      expect([text, shape.depth]).toEqual([text, depthOf(parsed)]);
      if (keysOf(parsed).some((k) => k === '__proto__' || k === 'prototype'))
        expect([text, shape.prototypeKeys]).toEqual([text, true]);
    }
  });
});

describe('parseJson', () => {
  it('keeps integers beyond 2^53 and numbers beyond a double as their digits', () => {
    const text =
      '{"id":12345678901234567890,"neg":-98765432109876543210,"max":9007199254740991,"huge":1e400,"tiny":-1e400,"pi":3.14,"n":[1,2]}';
    expect(JSON.stringify(parseJson(text, true))).toBe(text);
    expect(JSON.stringify(parseJson(text, false))).not.toBe(text);
  });

  it('leaves decimals as doubles, as any JavaScript JSON parser does', () => {
    expect(JSON.stringify(parseJson('[0.12345678901234567890]', true))).toBe('[0.12345678901234568]');
  });

  it('keeps __proto__ an own property that sets no prototype', () => {
    const parsed = parseJson('{"__proto__":{"polluted":true},"n":12345678901234567890}', true) as Record<
      string,
      unknown
    >;
    expect(Object.keys(parsed)).toEqual(['__proto__', 'n']);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });
});
