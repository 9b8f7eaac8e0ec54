/**
 * JSON Schema validation with ajv, compiled once per schema.
 *
 * Dialects: 2020-12 (the default when `$schema` is absent), 2019-09 and draft-07.
 * Anything else is refused with a clear error, as the spec asks. References to network
 * URIs are never fetched: a `$ref` that ajv cannot resolve locally fails compilation.
 * Depth and subschema-count bounds keep a hostile schema from tying up the validator.
 * Source: 2026-07-28 basic/index "JSON Schema Usage".
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv } from 'ajv';
import type { ValidateFunction, ErrorObject as AjvError } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { McpkitError } from '../core/errors.js';
import type { ValidationOutcome } from './types.js';

/** Bounds applied to every schema before it is compiled. */
export interface SchemaLimits {
  /** Deepest nesting of objects/arrays inside the schema (default 32). */
  maxDepth?: number;
  /** Most subschemas (objects) in the schema (default 1 000). */
  maxSubschemas?: number;
}

type AnyAjv = Ajv | Ajv2019 | Ajv2020;
const addFormats = addFormatsModule as unknown as (ajv: AnyAjv) => void;

const DIALECTS: Record<string, () => AnyAjv> = {
  'https://json-schema.org/draft/2020-12/schema': () => new Ajv2020(ajvOptions()),
  'https://json-schema.org/draft/2019-09/schema': () => new Ajv2019(ajvOptions()),
  'http://json-schema.org/draft-07/schema': () => new Ajv(ajvOptions()),
};

function ajvOptions(): object {
  return { strict: false, allErrors: true, validateFormats: true };
}

const instances = new Map<string, AnyAjv>();

function normaliseDialect(uri: unknown): string {
  if (uri === undefined) return 'https://json-schema.org/draft/2020-12/schema';
  if (typeof uri !== 'string') throw invalid('$schema must be a string');
  return uri.replace(/#$/, '');
}

function ajvFor(dialect: string): AnyAjv {
  const cached = instances.get(dialect);
  if (cached) return cached;
  const make = DIALECTS[dialect];
  if (!make) {
    throw invalid(
      `unsupported JSON Schema dialect ${dialect}; supported: ${Object.keys(DIALECTS).join(', ')}`,
    );
  }
  const ajv = make();
  addFormats(ajv);
  instances.set(dialect, ajv);
  return ajv;
}

function invalid(message: string, cause?: unknown): McpkitError {
  return new McpkitError('INVALID_DEFINITION', `Invalid JSON Schema: ${message}`, { cause });
}

/** Throws when the schema is deeper or larger than the limits allow. */
export function checkSchemaBounds(schema: unknown, limits: SchemaLimits = {}): void {
  const maxDepth = limits.maxDepth ?? 32;
  const maxSubschemas = limits.maxSubschemas ?? 1000;
  let count = 0;
  const walk = (node: unknown, depth: number): void => {
    if (typeof node !== 'object' || node === null) return;
    if (depth > maxDepth) throw invalid(`nested deeper than ${maxDepth} levels`);
    if (!Array.isArray(node) && ++count > maxSubschemas)
      throw invalid(`more than ${maxSubschemas} subschemas`);
    for (const child of Object.values(node)) walk(child, depth + 1);
  };
  walk(schema, 0);
}

/** Formats ajv errors as short sentences a model (or a person) can act on. */
export function describeAjvErrors(errors: readonly AjvError[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath === '' ? 'the value' : `'${e.instancePath}'`;
    const extra = e.keyword === 'additionalProperties' ? ` ('${String(e.params.additionalProperty)}')` : '';
    return `${where} ${e.message ?? 'is invalid'}${extra}`;
  });
}

/**
 * Compiles a JSON Schema once and returns a synchronous validator.
 * @throws McpkitError `INVALID_DEFINITION` for an unsupported dialect, a schema over the
 *   bounds, an unresolvable (e.g. network) `$ref`, or a schema ajv rejects.
 */
export function compileJsonSchema(
  schema: object,
  limits?: SchemaLimits,
): (value: unknown) => ValidationOutcome {
  checkSchemaBounds(schema, limits);
  const key = JSON.stringify(schema);
  const cached = compiledByText.get(key);
  if (cached) return cached;
  const validator = compileUncached(schema);
  if (compiledByText.size >= MAX_CACHED) compiledByText.delete(compiledByText.keys().next().value as string);
  compiledByText.set(key, validator);
  return validator;
}

// Equal schemas (the default tool input schema, repeated elicitation schemas) compile once.
const MAX_CACHED = 500;
const compiledByText = new Map<string, (value: unknown) => ValidationOutcome>();

function compileUncached(schema: object): (value: unknown) => ValidationOutcome {
  const ajv = ajvFor(normaliseDialect((schema as { $schema?: unknown }).$schema));
  let validate: ValidateFunction;
  try {
    const own = stripId(schema);
    validate = ajv.compile(own);
    // ajv keeps every compiled schema in a cache keyed by object; drop it so schemas compiled
    // per request (elicitation answers) do not accumulate. The validate function stays usable.
    ajv.removeSchema(own);
  } catch (cause) {
    throw invalid(cause instanceof Error ? cause.message : String(cause), cause);
  }
  return (value) =>
    validate(value) ? { ok: true, value } : { ok: false, issues: describeAjvErrors(validate.errors) };
}

// Two tools may declare the same `$id`; ajv keeps one schema per id, so compile a copy without it.
function stripId(schema: object): object {
  if (!('$id' in schema)) return schema;
  const { $id: _ignored, ...rest } = schema as Record<string, unknown>;
  return rest;
}
