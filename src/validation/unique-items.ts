/**
 * `uniqueItems` in linear time, for every ajv instance mcpkit creates.
 *
 * ajv compares items pairwise (quadratic) unless the items' schema declares scalar types,
 * so a hostile array of 500 000 small objects would block the event loop for minutes. This
 * keyword puts a canonical JSON form of each item (object keys sorted, recursively) into a
 * map instead: linear in the array's total size. Equality is JSON Schema's: `1` and `1.0`
 * are equal, key order is irrelevant. The error reads like ajv's own.
 * Source: JSON Schema 2020-12 validation §6.4.3, core §4.2.2 (instance equality).
 */

interface KeywordHost {
  removeKeyword(keyword: string): unknown;
  addKeyword(definition: object): unknown;
}

interface DuplicateError {
  keyword: 'uniqueItems';
  message: string;
  params: { i: number; j: number };
}

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

function validateUniqueItems(this: unknown, unique: boolean, data: readonly unknown[]): boolean {
  const self = validateUniqueItems as { errors?: DuplicateError[] | null };
  self.errors = null;
  const duplicate = unique ? firstDuplicate(data) : undefined;
  if (!duplicate) return true;
  const [j, i] = duplicate;
  self.errors = [
    {
      keyword: 'uniqueItems',
      message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
      params: { i, j },
    },
  ];
  return false;
}

/** Replaces ajv's quadratic `uniqueItems` on `ajv` with the linear one above. */
export function useLinearUniqueItems(ajv: KeywordHost): void {
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    errors: true,
    validate: validateUniqueItems,
  });
}
