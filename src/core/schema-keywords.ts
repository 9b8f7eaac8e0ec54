/**
 * JSON Schema keyword sets that every schema walker in mcpkit agrees on (pattern checks,
 * the `__proto__` rewrite, `x-mcp-header` discovery, OpenAPI conversion).
 * Source: JSON Schema 2020-12 Core §10.3.2 ("Keywords for Applying Subschemas to Objects")
 * and §8.2.4 (`$defs`); draft-07 `definitions` and `dependencies`.
 */

/** Keywords whose value maps names (or, for `patternProperties`, patterns) to subschemas. */
export const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);
