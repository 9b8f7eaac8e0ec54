// A server's schema as the form library may run it. @json-editor/json-editor tests `pattern`
// and `patternProperties` with V8's backtracking RegExp as the person types: a hostile
// server's `^(a+)+$` (with a crafted default) would freeze the tab. The form gets the schema
// without them; the server checks its patterns when the call is sent (in linear time, if it
// is mcpkit), and the pattern stays visible in the field's description.

type Json = unknown;

// Keywords whose values are instance data, not subschemas.
const DATA = new Set(['const', 'enum', 'default', 'examples']);

/** `schema` without the regular expressions the form library would run on V8. */
export function withoutPatterns<T>(schema: T): T {
  return strip(schema, undefined) as T;
}

function strip(node: Json, parentKey: string | undefined): Json {
  if (Array.isArray(node)) return node.map((item) => strip(item, undefined));
  if (typeof node !== 'object' || node === null) return node;
  const inMap = parentKey === 'properties' || parentKey === '$defs' || parentKey === 'definitions';
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!inMap && key === 'pattern' && typeof value === 'string') {
      out.description = describe(out.description ?? (node as { description?: unknown }).description, value);
      continue;
    }
    if (!inMap && key === 'patternProperties') continue;
    if (key === 'description' && 'description' in out) continue;
    out[key] = DATA.has(key) && !inMap ? value : strip(value, key);
  }
  return out;
}

function describe(description: unknown, pattern: string): string {
  const note = `pattern: ${pattern}`;
  return typeof description === 'string' && description !== '' ? `${description} (${note})` : note;
}
