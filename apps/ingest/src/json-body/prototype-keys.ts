/**
 * Keys that reach an object's prototype in JavaScript: `__proto__` anywhere, and `prototype`
 * inside a `constructor` object (the shape that poisons naive deep merges). A message holding
 * one is refused with the path; a plain `constructor` key (a car maker, say) is an ordinary key.
 * JSON.parse makes them inert own properties, but receivers and their libraries may not.
 */
export const PROTOTYPE_KEY_REASON = 'this key names a JavaScript prototype and is not accepted; rename it';

export function prototypeKeyPaths(message: unknown): string[] {
  const paths: string[] = [];
  // Iterative: the depth was bounded before parsing, but no walk of caller data recurses.
  const pending: Array<{ value: unknown; path: string; inConstructor: boolean }> = [
    { value: message, path: '', inConstructor: false },
  ];
  while (pending.length > 0) {
    const { value, path, inConstructor } = pending.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    for (const key of Object.keys(value)) {
      const keyPath = path ? `${path}.${key}` : key;
      if (key === '__proto__' || (inConstructor && key === 'prototype')) paths.push(keyPath);
      else
        pending.push({
          value: (value as Record<string, unknown>)[key],
          path: keyPath,
          inConstructor: key === 'constructor' && !Array.isArray(value),
        });
    }
  }
  return paths.sort();
}
