/**
 * Accepts what authors pass as a schema — any Standard Schema that can describe itself as
 * JSON Schema (zod v4 first) or a plain JSON Schema object — and compiles it once.
 * Source: Standard Schema v1 and Standard JSON Schema v1 (standardschema.dev).
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { LocalError } from '../core/index.js';
import { compileJsonSchema, type SchemaLimits } from './json-schema.js';
import { useLinearZodRegexes } from './zod-regex.js';
import type { CompiledSchema, ValidationOutcome } from './types.js';

/** A Standard Schema that also converts itself to JSON Schema (zod ≥ 4.2, valibot, arktype…). */
export type StandardJsonSchema<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output> &
  StandardJSONSchemaV1<Input, Output>;

/** What an author may pass where a schema is expected. */
export type SchemaInput = StandardJsonSchema | Record<string, unknown>;

/** The validated (output) type of a schema input; plain JSON Schema gives a record. */
export type InferOutput<S> = S extends StandardSchemaV1<unknown, infer O> ? O : Record<string, unknown>;

/** True when the value implements Standard Schema. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return typeof value === 'object' && value !== null && '~standard' in value;
}

/**
 * Compiles a schema input once; `owner` (e.g. `tool 'add' inputSchema`) starts the
 * message of a definition error. A zod schema's `.regex()` checks are switched to the RE2
 * engine (see zod-regex.ts); other Standard Schema libraries validate as they are.
 * @throws LocalError `INVALID_DEFINITION` for a Standard Schema that cannot describe
 *   itself as JSON Schema, for an invalid/unsupported JSON Schema, or for a pattern RE2
 *   cannot express.
 */
export function compileSchema(input: SchemaInput, limits?: SchemaLimits, owner?: string): CompiledSchema {
  if (owner === undefined) return compileAny(input, limits);
  try {
    return compileAny(input, limits);
  } catch (error) {
    if (!(error instanceof LocalError)) throw error;
    throw new LocalError(error.code, `${owner}: ${error.message}`, { cause: error });
  }
}

function compileAny(input: SchemaInput, limits: SchemaLimits | undefined): CompiledSchema {
  if (!isStandardSchema(input)) {
    const validate = compileJsonSchema(input, limits);
    return { jsonSchema: input, validate };
  }
  const props = input['~standard'] as StandardSchemaV1.Props & Partial<StandardJSONSchemaV1.Props>;
  if (!props.jsonSchema) {
    throw new LocalError(
      'INVALID_DEFINITION',
      `The ${props.vendor} schema cannot describe itself as JSON Schema (Standard JSON Schema); pass a JSON Schema instead`,
    );
  }
  const jsonSchema = props.jsonSchema.input({ target: 'draft-2020-12' });
  // zod's `.regex()` checks would run on V8's backtracking engine: switch them to RE2.
  const ready = props.vendor === 'zod' ? useLinearZodRegexes(input, limits) : undefined;
  if (!ready) return { jsonSchema, validate: (value) => validateStandard(props, value) };
  let engineReady = false;
  const validate = (value: unknown): ValidationOutcome | Promise<ValidationOutcome> => {
    if (engineReady) return validateStandard(props, value);
    return ready().then(() => ((engineReady = true), validateStandard(props, value)));
  };
  return { jsonSchema, validate };
}

// Synchronous when the library is (zod without async refinements): no promise per call.
function validateStandard(
  props: StandardSchemaV1.Props,
  value: unknown,
): ValidationOutcome | Promise<ValidationOutcome> {
  const result = props.validate(value);
  return 'then' in result ? Promise.resolve(result).then(outcomeOf) : outcomeOf(result);
}

function outcomeOf(result: StandardSchemaV1.Result<unknown>): ValidationOutcome {
  if (!result.issues) return { ok: true, value: result.value };
  return { ok: false, issues: result.issues.map(describeIssue) };
}

function describeIssue(issue: StandardSchemaV1.Issue): string {
  const path = (issue.path ?? []).map((p) => (typeof p === 'object' ? String(p.key) : String(p))).join('.');
  return path === '' ? issue.message : `'${path}': ${issue.message}`;
}
