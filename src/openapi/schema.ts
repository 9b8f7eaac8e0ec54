/**
 * OpenAPI schema objects → JSON Schema 2020-12 for tool input and output schemas.
 * OpenAPI 3.1 schemas are 2020-12 already; 3.0 ones get `nullable`, boolean
 * `exclusiveMinimum`/`exclusiveMaximum` and `example` rewritten. Either way the OpenAPI-only
 * annotations (`discriminator`, `xml`, `externalDocs`, `x-*`) are dropped, and properties that
 * are `readOnly` (in a request) or `writeOnly` (in a response) are left out.
 * Source: OpenAPI 3.0.3 §4.7.24 "Schema Object"; OpenAPI 3.1.0 §4.8.24; MCP 2026-07-28 server/tools.
 */
import { isObject } from '../core/runtime.js';

/** Which side of the exchange a schema describes (decides whether readOnly or writeOnly properties go). */
export type Direction = 'request' | 'response';

/** The OpenAPI dialect of a document: `3.0` schemas need rewriting, `3.1` ones do not. */
export type Dialect = '3.0' | '3.1';

/** Why a schema cannot become a tool schema; the message names the offending `$ref`. */
export class SchemaProblem extends Error {}

/** Most nested levels a converted schema may have (deeper ones come from hostile documents). */
const MAX_DEPTH = 64;
/** Most schema nodes in one converted schema: shared `$ref`s inline into copies, which can explode. */
const MAX_NODES = 20_000;

const DROPPED = new Set(['discriminator', 'xml', 'externalDocs']);
/** Keywords whose value is a map of names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

/**
 * Converts one dereferenced OpenAPI schema.
 * @throws SchemaProblem for a `$ref` left in place (unresolvable, external or recursive), or
 *   a schema deeper than 64 levels or larger than 20 000 nodes.
 */
export function toJsonSchema(schema: unknown, options: { dialect: Dialect; direction: Direction }): unknown {
  const state = { ...options, nodes: 0, path: [] as object[] };
  return convert(schema, state, 0);
}

interface State {
  dialect: Dialect;
  direction: Direction;
  nodes: number;
  /** The objects on the way down: a schema met again on its own path is recursive. */
  path: object[];
}

function convert(schema: unknown, state: State, depth: number): unknown {
  if (schema === null) throw new SchemaProblem('a schema is missing (an unresolvable $ref)');
  if (!isObject(schema)) return schema; // `true`/`false` schemas, and values of non-schema keywords
  if (depth > MAX_DEPTH) throw new SchemaProblem(`schema nests deeper than ${MAX_DEPTH} levels`);
  if (++state.nodes > MAX_NODES) throw new SchemaProblem(`schema has more than ${MAX_NODES} nodes`);
  if (state.path.includes(schema)) throw new SchemaProblem('recursive schema');
  if (typeof schema.$ref === 'string') throw new SchemaProblem(refProblem(schema.$ref));
  state.path.push(schema);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key) || key.startsWith('x-')) continue;
    out[key] = convertKeyword([key, value], state, depth);
  }
  state.path.pop();
  dropOneSided(out, state.direction);
  return state.dialect === '3.0' ? rewrite30(out) : out;
}

function convertKeyword([key, value]: [string, unknown], state: State, depth: number): unknown {
  if (SCHEMA_MAPS.has(key) && isObject(value)) {
    const map: Record<string, unknown> = {};
    for (const [name, sub] of Object.entries(value)) map[name] = convert(sub, state, depth + 1);
    return map;
  }
  if (SCHEMA_LISTS.has(key) && Array.isArray(value))
    return value.map((sub) => convert(sub, state, depth + 1));
  if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples' || key === 'example')
    return value; // data, not schemas
  if (isObject(value) || Array.isArray(value)) {
    return Array.isArray(value)
      ? value.map((sub) => convert(sub, state, depth + 1))
      : convert(value, state, depth + 1);
  }
  return value;
}

function refProblem(ref: string): string {
  if (!ref.startsWith('#'))
    return `external $ref ${JSON.stringify(ref)} (external documents are not fetched)`;
  return `recursive schema (through $ref ${JSON.stringify(ref)})`;
}

/** Leaves out the properties the other side owns (OpenAPI readOnly/writeOnly). */
function dropOneSided(schema: Record<string, unknown>, direction: Direction): void {
  const properties = schema.properties;
  if (!isObject(properties)) return;
  const owned = direction === 'request' ? 'readOnly' : 'writeOnly';
  const gone = Object.keys(properties).filter(
    (name) => isObject(properties[name]) && properties[name][owned] === true,
  );
  if (gone.length === 0) return;
  for (const name of gone) delete properties[name];
  if (Array.isArray(schema.required))
    schema.required = schema.required.filter((name) => !gone.includes(name));
}

/** OpenAPI 3.0's variations on JSON Schema, in 2020-12 terms. */
function rewrite30(schema: Record<string, unknown>): Record<string, unknown> {
  if (schema.nullable === true) {
    if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  }
  delete schema.nullable;
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[flag] !== 'boolean') continue;
    if (schema[flag] === true && typeof schema[bound] === 'number') {
      schema[flag] = schema[bound];
      delete schema[bound];
    } else delete schema[flag];
  }
  if ('example' in schema) {
    schema.examples = [schema.example];
    delete schema.example;
  }
  return schema;
}
