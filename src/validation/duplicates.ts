/**
 * Finding the first repeated item of an array in linear time, by a canonical JSON form of
 * each item (object keys sorted, recursively). Equality is JSON Schema's: `1` and `1.0` are
 * equal, key order is irrelevant. Shared by ajv's `uniqueItems` keyword (unique-items.ts)
 * and the interpreting engine's messages.
 * Source: JSON Schema 2020-12 validation §6.4.3, core §4.2.2 (instance equality).
 */

/** JSON text of `value` with object keys sorted, so equal JSON values give equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? String(value);
}

/** A short key per item: strings and numbers skip serialisation (the prefix keeps kinds apart). */
function itemKey(item: unknown): string {
  if (typeof item === 'string') return `s${item}`;
  if (typeof item === 'number') return `n${String(item)}`; // String(-0) is "0"
  return `j${canonical(item)}`;
}

/** The indices of the first repeated item, earlier first, or undefined when all differ. */
export function firstDuplicate(items: readonly unknown[]): [number, number] | undefined {
  const seen = new Map<string, number>();
  for (let i = 0; i < items.length; i++) {
    const key = itemKey(items[i]);
    const earlier = seen.get(key);
    if (earlier !== undefined) return [earlier, i];
    seen.set(key, i);
  }
  return undefined;
}
