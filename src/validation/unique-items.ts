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

import { firstDuplicate } from './duplicates.js';

interface KeywordHost {
  removeKeyword(keyword: string): unknown;
  addKeyword(definition: object): unknown;
}

interface DuplicateError {
  keyword: 'uniqueItems';
  message: string;
  params: { i: number; j: number };
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
