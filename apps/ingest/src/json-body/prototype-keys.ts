/**
 * Keys that reach an object's prototype in JavaScript: `__proto__` anywhere, and `prototype`
 * inside a `constructor` object (the shape that poisons naive deep merges). A body holding one is
 * refused with the path; a plain `constructor` key (a car maker, say) is an ordinary key.
 * JSON.parse makes them inert own properties, but receivers and their libraries may not.
 */
export const PROTOTYPE_KEY_REASON = 'this key names a JavaScript prototype and is not accepted; rename it';

/** Where a key sits, from the walked value down: object keys, and array positions as numbers. */
export type KeyPath = ReadonlyArray<string | number>;

/** One object or array being walked, and how far through it the walk is. */
interface Level {
  container: Record<string, unknown> | unknown[];
  /** The object's keys; undefined for an array, whose positions are read by number. */
  keys: string[] | undefined;
  next: number;
  /** Reached through a `constructor` key, so a `prototype` key here names a prototype. */
  inConstructor: boolean;
}

/**
 * Calls `found` with the path of every prototype key in `value`, at any depth, in document
 * order; a prototype key's own value is not walked. Iterative (no walk of caller data recurses,
 * whatever depth the parser allowed), one visit per key, and nothing allocated per key: one level
 * per object or array entered, and a path only for a key it reports.
 */
export function forEachPrototypeKey(value: unknown, found: (path: KeyPath) => void): void {
  const levels: Level[] = [];
  // path[i] is the key or position through which levels[i + 1] was entered.
  const path: Array<string | number> = [];
  const enter = (child: unknown, key: string | number | undefined, inConstructor: boolean) => {
    if (typeof child !== 'object' || child === null) return;
    if (key !== undefined) path.push(key);
    const keys = Array.isArray(child) ? undefined : Object.keys(child);
    levels.push({ container: child as Level['container'], keys, next: 0, inConstructor });
  };
  enter(value, undefined, false);
  while (levels.length > 0) {
    const level = levels[levels.length - 1];
    const { container, keys } = level;
    if (keys === undefined) {
      const items = container as unknown[];
      if (level.next < items.length) {
        const position = level.next++;
        enter(items[position], position, false);
        continue;
      }
    } else if (level.next < keys.length) {
      const key = keys[level.next++];
      if (key === '__proto__' || (level.inConstructor && key === 'prototype')) found([...path, key]);
      else enter((container as Record<string, unknown>)[key], key, key === 'constructor');
      continue;
    }
    levels.pop();
    path.pop();
  }
}

/** The dotted paths of every prototype key in `value` (`delta.added.0.__proto__`), in document order. */
export function prototypeKeyPaths(value: unknown): string[] {
  const paths: string[] = [];
  forEachPrototypeKey(value, (path) => paths.push(path.join('.')));
  return paths;
}
