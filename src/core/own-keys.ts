/**
 * Keys chosen by a peer or a schema (input request keys, method names, property names,
 * header names, `_meta` keys) are arbitrary strings, `__proto__` and `constructor`
 * included. These helpers treat such a key as an ordinary own key of a plain object:
 * a lookup never finds `Object.prototype`'s members, and a write never sets a prototype.
 */

/** The value under `key` when `table` has it as an own property, else undefined. */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Sets `key` (even `__proto__`) as an own enumerable data property of `target`. */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
