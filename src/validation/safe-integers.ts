/**
 * Integers a JSON number cannot carry exactly. JSON text may hold any integer, but a
 * JavaScript number holds integers exactly only up to 2^53 − 1: `1917043659912705296`
 * parses as `1917043659912705300`. A schema that says `type: "integer"` means a count, an
 * id or an amount, where a silently different number is a wrong answer, so such a value is
 * refused (zod v4's `int()` does the same, and writes the same bounds into its JSON Schema).
 * The check costs nothing at run time beyond the engines' own `minimum`/`maximum`: each
 * integer-typed subschema gets the safe bounds added to the copy that is compiled, once.
 * Source: RFC 8259 §6 (interoperable integers are within ±(2^53 − 1)); 2026-07-28 basic/index
 * "JSON Schema Usage".
 */

import { setOwn } from '../core/runtime.js';

/** Keys whose values are data, not subschemas: never rewritten. */
const DATA_KEYS = new Set(['const', 'enum', 'default', 'examples']);

/** True when `schema` mentions `"integer"` anywhere (the common schema does not: nothing to do). */
export function mentionsInteger(schemaText: string): boolean {
  return schemaText.includes('"integer"');
}

/**
 * A copy of `schema` in which every subschema whose `type` allows integers but not other
 * numbers has `minimum` ≥ −(2^53 − 1) and `maximum` ≤ 2^53 − 1 (tighter bounds it already
 * has are kept). `schema` itself is not changed (it is what `tools/list` shows).
 */
export function withSafeIntegerBounds(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withSafeIntegerBounds);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    setOwn(copy, key, DATA_KEYS.has(key) ? value : withSafeIntegerBounds(value));
  }
  if (integerOnly(copy.type)) bound(copy);
  return copy;
}

function integerOnly(type: unknown): boolean {
  if (type === 'integer') return true;
  return Array.isArray(type) && type.includes('integer') && !type.includes('number');
}

function bound(schema: Record<string, unknown>): void {
  const { maximum, minimum } = schema;
  if (typeof maximum !== 'number' || maximum > Number.MAX_SAFE_INTEGER) {
    schema.maximum = Number.MAX_SAFE_INTEGER;
  }
  if (typeof minimum !== 'number' || minimum < Number.MIN_SAFE_INTEGER) {
    schema.minimum = Number.MIN_SAFE_INTEGER;
  }
}

/**
 * The sentence for a failed `minimum`/`maximum` of `limit` when it is one of the safe
 * bounds, so the caller learns why; undefined for any other limit.
 */
export function unsafeIntegerPhrase(limit: unknown): string | undefined {
  return limit === Number.MAX_SAFE_INTEGER || limit === Number.MIN_SAFE_INTEGER
    ? 'must be an integer within ±9007199254740991 (2^53 − 1): a JSON number cannot carry a larger one exactly'
    : undefined;
}
