import { forEachPrototypeKey, prototypeKeyPaths } from './prototype-keys';

describe('prototypeKeyPaths', () => {
  const parse = (text: string) => JSON.parse(text) as unknown;

  it.each([
    ['__proto__ at the top', '{"__proto__":{"x":1}}', ['__proto__']],
    ['__proto__ three levels down', '{"a":{"b":{"c":{"__proto__":1}}}}', ['a.b.c.__proto__']],
    [
      'constructor.prototype',
      '{"context":{"constructor":{"prototype":{"x":1}}}}',
      ['context.constructor.prototype'],
    ],
    [
      'constructor.prototype inside an array',
      '{"a":[1,{"constructor":{"prototype":1}}]}',
      ['a.1.constructor.prototype'],
    ],
    [
      'every key, in document order',
      '{"b":{"__proto__":1},"a":[{"__proto__":2}],"c":{"constructor":{"prototype":3}}}',
      ['b.__proto__', 'a.0.__proto__', 'c.constructor.prototype'],
    ],
  ])('names %s', (_name, text, paths) => {
    expect(prototypeKeyPaths(parse(text))).toEqual(paths);
  });

  it.each([
    ['a plain constructor key', '{"properties":{"constructor":"Ford"}}'],
    ['prototype outside a constructor object', '{"prototype":{"x":1},"a":{"prototype":2}}'],
    ['prototype below a constructor array', '{"constructor":[{"prototype":1}]}'],
    ['prototype two levels below constructor', '{"constructor":{"a":{"prototype":1}}}'],
    ['__proto__ as a value', '{"a":"__proto__","b":["__proto__"]}'],
    ['a scalar', '1'],
  ])('accepts %s', (_name, text) => {
    expect(prototypeKeyPaths(parse(text))).toEqual([]);
  });

  it('walks nesting far deeper than a recursive walk could', () => {
    const depth = 200_000;
    const text = `${'{"a":'.repeat(depth)}{"__proto__":1}${'}'.repeat(depth)}`;
    const paths: Array<readonly (string | number)[]> = [];
    forEachPrototypeKey(parse(text), (path) => paths.push(path));
    expect(paths).toHaveLength(1);
    expect(paths[0]).toHaveLength(depth + 1);
    expect(paths[0][depth]).toBe('__proto__');
  });

  it('gives array positions as numbers', () => {
    const paths: Array<readonly (string | number)[]> = [];
    forEachPrototypeKey(parse('{"batch":[{},{"p":{"__proto__":1}}]}'), (path) => paths.push(path));
    expect(paths).toEqual([['batch', 1, 'p', '__proto__']]);
  });
});
