/**
 * JSON Schema validation with ajv, compiled once per schema.
 *
 * Dialects: 2020-12 (the default when `$schema` is absent), 2019-09 and draft-07.
 * Anything else is refused with a clear error, as the spec asks. References to network
 * URIs are never fetched: a `$ref` that names nothing inside the schema (refs.ts) is
 * refused at once, before anything is compiled.
 * Depth and subschema-count bounds keep a hostile schema from tying up the validator.
 *
 * ajv is loaded on the first validation, not at import: a server that only lists its
 * tools, or validates with a Standard Schema library, never pays for it. It comes through
 * the package import `#compiled-engine` (ajv-engine.ts), which a bundle for the `workerd`
 * or `worker` condition maps to ajv-absent.ts: there every schema is interpreted. Most 2020-12
 * schemas start on an interpreter and move to ajv once hot (interpreted.ts), so a spawned
 * server answers its first call without loading ajv. The dialect, the bounds
 * and the references are checked at once; what only ajv can find (a malformed keyword)
 * surfaces on first use.
 * Source: 2026-07-28 basic/index "JSON Schema Usage".
 */
import type { ValidateFunction, ErrorObject as AjvError } from 'ajv';
import { LocalError } from '../core/index.js';
import type { ValidationOutcome } from './types.js';
import type { AjvLike } from './ajv-engine.js';
import { hybridValidator, interpretable } from './interpreted.js';
import { mentionsInteger, unsafeIntegerPhrase, withSafeIntegerBounds } from './safe-integers.js';
import { checkSchemaPatterns, withPatternLimits, type PatternLimits } from './patterns.js';
import { resolvedEngine, type SchemaEngine } from './engine.js';
import { withProtoMembers } from './proto-keys.js';
import { interpretedValidator } from './no-codegen.js';
import { unresolvableRef } from './refs.js';

/**
 * Bounds applied to every schema before it is compiled, and to its regular expressions
 * (see {@link PatternLimits}: pattern length, RE2 program size, `url` length).
 */
export interface SchemaLimits extends PatternLimits {
  /** Deepest nesting of objects/arrays inside the schema (default 32). */
  maxDepth?: number;
  /** Most subschemas (objects) in the schema (default 1 000). */
  maxSubschemas?: number;
  /** Largest schema as JSON text, in UTF-16 code units (default 1 MiB). */
  maxBytes?: number;
  /**
   * Which engine validates (default `'auto'`: ajv's compiled code where the runtime allows
   * code generation, the interpreter everywhere else, such as Cloudflare Workers); see
   * {@link SchemaEngine}. The same dialects, bounds, formats, patterns and messages either way.
   */
  engine?: SchemaEngine;
}

/** A compiled validator: synchronous once ajv is loaded, a promise before that. */
export type JsonSchemaValidator = (value: unknown) => ValidationOutcome | Promise<ValidationOutcome>;

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';
const DRAFT_2019 = 'https://json-schema.org/draft/2019-09/schema';
const DRAFT_07 = 'http://json-schema.org/draft-07/schema';
const DIALECTS = [DRAFT_2020, DRAFT_2019, DRAFT_07];

let loading: Promise<Map<string, AjvLike> | undefined> | undefined;
let loaded: Map<string, AjvLike> | undefined;
/** True once `#compiled-engine` turned out to be the bundle without ajv (Workers conditions). */
let compiledAbsent = false;

/**
 * Loads ajv once (ajv-engine.ts, through the package import that Workers bundles map to
 * ajv-absent.ts) and builds one instance per dialect; undefined where the bundle has no ajv.
 */
function loadAjv(): Promise<Map<string, AjvLike> | undefined> {
  loading ??= import('#compiled-engine').then(async (engine) => {
    if (!engine.COMPILED_ENGINE_AVAILABLE) {
      compiledAbsent = true;
      return undefined;
    }
    return (loaded = await engine.createAjvInstances());
  });
  return loading;
}

function dialectOf(schema: object): string {
  const uri = (schema as { $schema?: unknown }).$schema;
  if (uri === undefined) return DRAFT_2020;
  if (typeof uri !== 'string') throw invalid('$schema must be a string');
  const dialect = uri.replace(/#$/, '');
  if (!DIALECTS.includes(dialect)) {
    throw invalid(`unsupported JSON Schema dialect ${dialect}; supported: ${DIALECTS.join(', ')}`);
  }
  return dialect;
}

/** Asking for engine 'compiled' in a bundle that has no ajv (see ajv-absent.ts). */
function compiledUnavailable(): LocalError {
  return new LocalError(
    'INVALID_ARGUMENT',
    "JSON Schema engine 'compiled' (ajv) is not in this bundle (built for the workerd/worker " +
      "conditions, where code generation is refused); use engine 'auto' or 'interpreted'",
  );
}

function invalid(message: string, cause?: unknown): LocalError {
  return new LocalError('INVALID_DEFINITION', `Invalid JSON Schema: ${message}`, { cause });
}

/** Throws when the schema is deeper or larger than the limits allow. */
function checkSchemaBounds(schema: unknown, limits: SchemaLimits = {}): void {
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
function describeAjvErrors(errors: readonly AjvError[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath === '' ? 'the value' : `'${e.instancePath}'`;
    const extra = e.keyword === 'additionalProperties' ? ` ('${String(e.params.additionalProperty)}')` : '';
    const unsafe =
      e.keyword === 'maximum' || e.keyword === 'minimum' ? unsafeIntegerPhrase(e.params.limit) : undefined;
    return `${where} ${unsafe ?? e.message ?? 'is invalid'}${extra}`;
  });
}

// Equal schemas (the same elicitation schema again, shared definitions) compile once.
const MAX_CACHED = 500;
const compiledByText = new Map<string, ValidateFunction>();

/** What one validator compiles: the schema, its dialect and bounds, and its cache key. */
interface Compiling {
  dialect: string;
  schema: object;
  key: string;
  limits: SchemaLimits | undefined;
}

function compileNow(
  ajvs: Map<string, AjvLike>,
  { dialect, schema, key, limits }: Compiling,
): ValidateFunction {
  const cached = compiledByText.get(key);
  if (cached) return cached;
  const ajv = ajvs.get(dialect) as AjvLike;
  const own = withProtoMembers(stripId(schema));
  let validate: ValidateFunction;
  try {
    validate = withPatternLimits(limits, () => ajv.compile(own));
  } catch (cause) {
    throw invalid(cause instanceof Error ? cause.message : String(cause), cause);
  } finally {
    // ajv caches every compiled schema by object; drop it so per-request schemas do not pile up.
    ajv.removeSchema(own);
  }
  if (compiledByText.size >= MAX_CACHED) compiledByText.delete(compiledByText.keys().next().value as string);
  compiledByText.set(key, validate);
  return validate;
}

function run(
  validate: ValidateFunction,
  value: unknown,
  limits: SchemaLimits | undefined,
): ValidationOutcome {
  return withPatternLimits(limits, () => validate(value))
    ? { ok: true, value }
    : { ok: false, issues: describeAjvErrors(validate.errors) };
}

/**
 * Prepares a JSON Schema validator. The dialect, the bounds and the patterns' syntax are
 * checked now; the schema is compiled with ajv on first use (ajv itself is loaded then)
 * and kept, or, where code generation is unavailable (`limits.engine`), prepared for the
 * interpreter (no-codegen.ts) on first use.
 * @throws LocalError `INVALID_DEFINITION` now for an unsupported dialect, a schema over
 *   the bounds, a `$ref` that names nothing inside the schema (a network URI is never
 *   fetched), or a pattern RE2 cannot express (lookahead, backreferences) or over
 *   `maxPatternLength`; the validator rejects with it for an RE2 program over
 *   `maxPatternProgram`, or a schema ajv refuses.
 */
export function compileJsonSchema(schema: object, limits?: SchemaLimits): JsonSchemaValidator {
  checkSchemaBounds(schema, limits);
  const dialect = dialectOf(schema);
  const text = JSON.stringify(schema);
  const maxBytes = limits?.maxBytes ?? 1024 * 1024;
  if (text.length > maxBytes) throw invalid(`larger than ${maxBytes} bytes`);
  checkSchemaPatterns(schema, limits);
  const dangling = unresolvableRef(schema);
  if (dangling !== undefined) throw invalid(dangling);
  // Integer-typed values beyond ±(2^53 − 1) are refused (safe-integers.ts), in the compiled copy only.
  const checked = mentionsInteger(text) ? (withSafeIntegerBounds(schema) as object) : schema;
  const key = `${dialect}\n${patternLimitsKey(limits)}\n${text}`;
  const compiling = { dialect, schema: checked, key, limits };
  const engine = resolvedEngine(limits?.engine);
  if (engine === 'interpreted') return interpretedValidator(compiling);
  let validate: ValidateFunction | undefined;
  // Where the bundle has no ajv (Workers conditions), 'auto' interprets; 'compiled' is refused.
  let interpret: JsonSchemaValidator | undefined;
  const withoutAjv = (value: unknown) =>
    engine === 'compiled'
      ? Promise.reject(compiledUnavailable())
      : (interpret ??= interpretedValidator(compiling))(value);
  const viaAjv: JsonSchemaValidator = (value) => {
    if (validate) return run(validate, value, limits);
    if (loaded) return run((validate = compileNow(loaded, compiling)), value, limits);
    if (compiledAbsent) return withoutAjv(value);
    return loadAjv().then((ajvs) =>
      ajvs ? run((validate ??= compileNow(ajvs, compiling)), value, limits) : withoutAjv(value),
    );
  };
  // A 2020-12 schema starts on the interpreter, unless ajv is already loaded (see interpreted.ts).
  return engine === 'hybrid' && dialect === DRAFT_2020 && !loaded && interpretable(checked)
    ? hybridValidator(checked, viaAjv)
    : viaAjv;
}

// Equal schemas share a compiled validator only under the same pattern bounds.
function patternLimitsKey(limits: PatternLimits | undefined): string {
  const key = [limits?.maxPatternLength, limits?.maxPatternProgram, limits?.maxUrlLength].join(',');
  return key === ',,' ? '' : key;
}

// Two tools may declare the same `$id`; ajv keeps one schema per id, so compile a copy without it.
function stripId(schema: object): object {
  if (!('$id' in schema)) return schema;
  const { $id: _ignored, ...rest } = schema as Record<string, unknown>;
  return rest;
}
