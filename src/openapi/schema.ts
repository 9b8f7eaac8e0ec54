/**
 * OpenAPI schema objects → JSON Schema 2020-12 for tool input and output schemas.
 * OpenAPI 3.1 schemas are 2020-12 already; 3.0 ones get `nullable`, boolean
 * `exclusiveMinimum`/`exclusiveMaximum` and `example` rewritten. Either way the OpenAPI-only
 * annotations (`discriminator`, `xml`, `externalDocs`, `x-*`) are dropped, and properties that
 * are `readOnly` (in a request) or `writeOnly` (in a response) are left out.
 * Source: OpenAPI 3.0.3 §4.7.24 "Schema Object"; OpenAPI 3.1.0 §4.8.24; MCP 2026-07-28 server/tools.
 */
import { SCHEMA_MAP_KEYWORDS, isObject } from '../core/runtime.js';

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
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

/** What a conversion needs: the dialect, the side, and for recursive schemas the document. */
export interface ConvertOptions {
  dialect: Dialect;
  direction: Direction;
  /** The whole document, to follow the local `$ref`s dereferencing left (recursive ones). */
  document?: Record<string, unknown>;
  /** Where the schemas those `$ref`s name are gathered, by name: the tool root's `$defs`. */
  defs?: Record<string, unknown>;
}

/**
 * Converts one dereferenced OpenAPI schema. A local `$ref` left in place (dereferencing
 * leaves recursive ones, such as a tree whose children are trees) is kept as a `$ref` to
 * `#/$defs/{name}`, and the schema it names is converted once into `options.defs`: the
 * caller puts those under the tool schema's `$defs`, so validation follows the recursion.
 * @throws SchemaProblem for an external or unresolvable `$ref` (or a local one without
 *   `options.document`), or a schema deeper than 64 levels or larger than 20 000 nodes.
 */
export function toJsonSchema(schema: unknown, options: ConvertOptions): unknown {
  const state: State = { ...options, nodes: 0, path: [], names: new Map() };
  return convert(schema, state, 0);
}

interface State extends ConvertOptions {
  nodes: number;
  /** The objects on the way down: a schema met again on its own path is recursive. */
  path: object[];
  /** Pointer → the name its schema has in `defs`. */
  names: Map<string, string>;
}

/** The `$defs` name for a local pointer: its last segment, made unique. */
function defName(pointer: string, state: State): string {
  const known = state.names.get(pointer);
  if (known !== undefined) return known;
  const last = (pointer.split('/').pop() ?? 'schema').replace(/~1/g, '/').replace(/~0/g, '~');
  const base = last.replace(/[^A-Za-z0-9_.-]/g, '_') || 'schema';
  let name = base;
  for (let i = 2; state.defs && Object.hasOwn(state.defs, name); i++) name = `${base}_${i}`;
  state.names.set(pointer, name);
  return name;
}

/** A local `$ref` kept: its target converted once into `defs`, the ref pointed there. */
function keptRef(ref: string, state: State): string {
  if (!ref.startsWith('#/') || !state.document || !state.defs) throw new SchemaProblem(refProblem(ref));
  const known = state.names.get(ref);
  if (known !== undefined) return `#/$defs/${known}`;
  let target: unknown = state.document;
  for (const raw of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      throw new SchemaProblem(`unresolvable $ref ${JSON.stringify(ref)}`);
    }
    target = isObject(target) && Object.hasOwn(target, key) ? target[key] : undefined;
  }
  if (target === undefined) throw new SchemaProblem(`unresolvable $ref ${JSON.stringify(ref)}`);
  const name = defName(ref, state);
  state.defs[name] = true; // taken before converting, so a ref back to it ends here
  const outer = state.path;
  state.path = [];
  state.defs[name] = convert(target, state, 0);
  state.path = outer;
  return `#/$defs/${name}`;
}

function convert(schema: unknown, state: State, depth: number): unknown {
  if (schema === null) throw new SchemaProblem('a schema is missing (an unresolvable $ref)');
  if (!isObject(schema)) return schema; // `true`/`false` schemas, and values of non-schema keywords
  if (depth > MAX_DEPTH) throw new SchemaProblem(`schema nests deeper than ${MAX_DEPTH} levels`);
  if (++state.nodes > MAX_NODES) throw new SchemaProblem(`schema has more than ${MAX_NODES} nodes`);
  if (state.path.includes(schema)) throw new SchemaProblem('recursive schema');
  state.path.push(schema);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key) || key.startsWith('x-')) continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = keptRef(value, state);
    else out[key] = convertKeyword([key, value], state, depth);
  }
  state.path.pop();
  dropOneSided(out, state.direction);
  return state.dialect === '3.0' ? rewrite30(out) : out;
}

function convertKeyword([key, value]: [string, unknown], state: State, depth: number): unknown {
  if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) {
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
  return `unresolvable $ref ${JSON.stringify(ref)}`;
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
