/**
 * Keys a peer or a schema may choose that a plain object would mistake for its prototype's
 * members, and the check that none of them changed a prototype. Shared by the own-key tests.
 */
import fc from 'fast-check';
import { expect } from 'vitest';

/** Names `Object.prototype` holds (or that set a prototype), and the empty string. */
export const NASTY_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  '__defineGetter__',
  '',
] as const;

/** A key as a peer may send it: mostly the nasty ones, sometimes any string. */
export const peerKey = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

/** A key that is also an HTTP token, a URI-template varname and a tool name (no ''). */
export const tokenKey = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_KEYS.filter((k) => k !== '')) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/) },
);

/** `{ [key]: value }` with `key` an own key even when it is `__proto__` (as JSON.parse builds it). */
export function own<T>(key: string, value: T): Record<string, T> {
  return Object.fromEntries([[key, value]]) as Record<string, T>;
}

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

/**
 * Asserts that `key` is an own key of `object` holding `value`, that `object` is an
 * ordinary object, and that nothing was added to `Object.prototype`.
 */
export function expectOwn(object: unknown, key: string, value?: unknown): void {
  expect(typeof object).toBe('object');
  expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
  expect(Object.hasOwn(object as object, key), `own key ${JSON.stringify(key)}`).toBe(true);
  if (arguments.length > 2) expect((object as Record<string, unknown>)[key]).toEqual(value);
  expectNoPollution();
}

/** Asserts that `Object.prototype` is as it was and `({}).polluted` is still undefined. */
export function expectNoPollution(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}
