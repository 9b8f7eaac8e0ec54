/**
 * The `x-mcp-header` rules: which tool parameters a server asks clients to mirror into
 * `Mcp-Param-{Name}` headers, and when a tool definition's annotations are invalid (the
 * client then rejects the tool; the server refuses to register it). Part of the spec-wire
 * module (re-exported by wire.ts). Two bounds of our own, since a peer's schema decides
 * what a client would send: a name holds at most {@link MAX_HEADER_NAME} characters and a
 * tool at most {@link MAX_ANNOTATIONS} annotations (a server refuses more at registration,
 * a client drops such a tool with the reason, as for any invalid annotation).
 * Source: 2026-07-28 basic/transports/streamable-http "Custom Headers from Tool
 * Parameters"; server/tools "x-mcp-header".
 */
import { isObject } from './jsonrpc.js';
import { SCHEMA_MAP_KEYWORDS } from './schema-keywords.js';

// RFC 9110 §5.6.2 tchar.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** True when `name` is an HTTP field-name token (`1*tchar`, RFC 9110 §5.1). */
export function isHeaderToken(name: string): boolean {
  return TOKEN.test(name);
}

/** One annotated parameter: its path through `properties` keys and the header name part. */
export interface HeaderAnnotation {
  readonly path: readonly string[];
  readonly name: string;
}

/** The verdict on one tool's `inputSchema`. */
export type ToolHeaderCheck = { ok: true; annotations: HeaderAnnotation[] } | { ok: false; reason: string };

type Schema = { [key: string]: unknown };

const KEYWORD = 'x-mcp-header';
const PRIMITIVE = new Set(['string', 'integer', 'boolean']);
/** Keywords whose value is instance data, never a schema. */
const DATA = new Set(['enum', 'const', 'default', 'examples']);
const MAX_DEPTH = 64;
/** Most characters of an `x-mcp-header` name (the header is `Mcp-Param-` plus it). */
const MAX_HEADER_NAME = 128;
/** Most `x-mcp-header` annotations in one tool's `inputSchema`. */
const MAX_ANNOTATIONS = 64;

/** A name as a reason quotes it: at most 40 characters of it. */
const quoted = (name: string): string => JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);

const isSchema = (v: unknown): v is Schema => isObject(v);

/** Annotated schemas reachable from the root through a chain of `properties` keys only. */
function reachable(schema: Schema, path: string[], found: Map<Schema, string[]>): void {
  if (path.length >= MAX_DEPTH || !isSchema(schema.properties)) return;
  for (const [key, child] of Object.entries(schema.properties)) {
    if (!isSchema(child)) continue;
    if (Object.hasOwn(child, KEYWORD)) found.set(child, [...path, key]);
    reachable(child, [...path, key], found);
  }
}

/** Every annotated schema anywhere in the document. */
function annotatedAnywhere(value: unknown, found: Set<Schema>, depth = 0): void {
  if (depth >= MAX_DEPTH || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) return value.forEach((v) => annotatedAnywhere(v, found, depth + 1));
  if (Object.hasOwn(value, KEYWORD)) found.add(value as Schema);
  for (const [key, child] of Object.entries(value)) {
    if (DATA.has(key)) continue;
    if (SCHEMA_MAP_KEYWORDS.has(key) && isSchema(child)) {
      for (const sub of Object.values(child)) annotatedAnywhere(sub, found, depth + 1);
    } else annotatedAnywhere(child, found, depth + 1);
  }
}

function isPrimitiveTyped(schema: Schema): boolean {
  const type = schema.type;
  if (typeof type === 'string') return PRIMITIVE.has(type);
  if (!Array.isArray(type)) return false;
  const named = type.filter((t) => t !== 'null');
  return named.length > 0 && named.every((t) => typeof t === 'string' && PRIMITIVE.has(t));
}

function annotationProblem(name: unknown, schema: Schema): string | undefined {
  if (typeof name !== 'string') return 'x-mcp-header must be a string';
  if (name === '') return 'x-mcp-header must not be empty';
  if (name.length > MAX_HEADER_NAME)
    return `x-mcp-header ${quoted(name)} is longer than ${MAX_HEADER_NAME} characters`;
  if (!isHeaderToken(name)) return `x-mcp-header ${quoted(name)} is not an HTTP header token`;
  if (!isPrimitiveTyped(schema)) {
    return `x-mcp-header ${quoted(name)} is on a parameter that is not of type string, integer or boolean`;
  }
  return undefined;
}

/**
 * Checks the `x-mcp-header` annotations of a tool's `inputSchema` against the constraints
 * of server/tools "x-mcp-header": non-empty token names, unique ignoring case, only on
 * string/integer/boolean parameters reachable from the root through `properties` alone;
 * and the bounds of the module comment.
 */
export function checkToolHeaders(inputSchema: unknown): ToolHeaderCheck {
  if (!isSchema(inputSchema)) return { ok: true, annotations: [] };
  const paths = new Map<Schema, string[]>();
  reachable(inputSchema, [], paths);
  const anywhere = new Set<Schema>();
  annotatedAnywhere(inputSchema, anywhere);
  if (anywhere.size > MAX_ANNOTATIONS)
    return { ok: false, reason: `more than ${MAX_ANNOTATIONS} x-mcp-header annotations` };
  for (const schema of anywhere) {
    if (!paths.has(schema)) {
      return { ok: false, reason: 'x-mcp-header on a schema not reachable through properties alone' };
    }
  }
  const annotations: HeaderAnnotation[] = [];
  const seen = new Set<string>();
  for (const [schema, path] of paths) {
    const name = schema[KEYWORD];
    const problem = annotationProblem(name, schema);
    if (problem !== undefined) return { ok: false, reason: problem };
    const folded = (name as string).toLowerCase();
    if (seen.has(folded))
      return { ok: false, reason: `x-mcp-header ${quoted(name as string)} is used twice` };
    seen.add(folded);
    annotations.push({ path, name: name as string });
  }
  return { ok: true, annotations };
}

/** The value at `path` (a chain of own property keys) inside `args`, or undefined. */
export function valueAtPath(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) {
    if (!isSchema(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}
