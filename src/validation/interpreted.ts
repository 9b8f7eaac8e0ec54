/**
 * The fast start of JSON Schema validation: an interpreting 2020-12 validator
 * (@cfworker/json-schema, ~55 KB, no code generation) answers until a schema is hot, then
 * ajv's compiled code takes over: loading ajv and generating code is a heavy first call,
 * interpreting is slower per call than compiled code (figures: bench/RESULTS.md).
 *
 * - The interpreter decides only "valid". A value it rejects goes to ajv, so every error
 *   message (and the verdict on a rejected value) is ajv's, hot or not.
 * - The schema itself is checked against the 2020-12 meta-schema (the interpreter reads
 *   ajv's copy, see lazy-interpreter.ts), as ajv does before compiling; a schema that fails goes to ajv, which
 *   refuses it with its own INVALID_DEFINITION error.
 * - Only schemas where the two cannot differ in safety or verdict take this path. These go
 *   to ajv directly: `pattern`, `patternProperties` and `format` (they run on RE2 in ajv,
 *   never on V8's regex engine); `uniqueItems` (the interpreter compares every pair of
 *   items, quadratic in a hostile array; ajv's, replaced in unique-items.ts, is linear);
 *   `multipleOf` (the two disagree on fractional divisors: 0.3 with multipleOf 0.1, and
 *   the verdict must be ajv's); references outside the document; dynamic references.
 * Source: 2026-07-28 basic/index "JSON Schema Usage".
 */
import type { ValidationOutcome } from './types.js';

/** A validator as `compileJsonSchema` returns it. */
type Validate = (value: unknown) => ValidationOutcome | Promise<ValidationOutcome>;

interface Interpreter {
  validate(value: unknown): { valid: boolean };
  addSchema(schema: object): void;
}
type InterpreterClass = new (schema: object, draft: '2020-12', shortCircuit: boolean) => Interpreter;

/** Validations of one schema after which ajv compiles it (in the background). */
export const HOT_AFTER = 256;

const ROUTED_TO_AJV = new Set([
  'pattern',
  'patternProperties',
  'format',
  '$dynamicRef',
  '$dynamicAnchor',
  'uniqueItems',
  'multipleOf',
]);

/** True when `schema` may be interpreted: see the module comment for what is excluded. */
export function interpretable(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return true;
  for (const [key, child] of Object.entries(schema)) {
    if (ROUTED_TO_AJV.has(key)) return false;
    if (key === '$ref' && (typeof child !== 'string' || !child.startsWith('#'))) return false;
    if (key === '$id') return false;
    if (!interpretable(child)) return false;
  }
  return true;
}

let loading: Promise<{ Interpreter: InterpreterClass; meta: Interpreter }> | undefined;

/** Loads the interpreter and the 2020-12 meta-schema once (see lazy-interpreter.ts). */
function loadInterpreter(): Promise<{ Interpreter: InterpreterClass; meta: Interpreter }> {
  loading ??= import('./lazy-interpreter.js').then(({ Validator, META_2020_12 }) => {
    const Interpreter = Validator as unknown as InterpreterClass;
    const [root, ...vocabularies] = META_2020_12;
    const meta = new Interpreter(root as object, '2020-12', true);
    for (const document of vocabularies) meta.addSchema(document);
    return { Interpreter, meta };
  });
  return loading;
}

/**
 * Wraps `viaAjv` (the compiled validator of the same schema): values are interpreted until
 * the schema has been used {@link HOT_AFTER} times, then ajv's code answers once ready.
 */
export function hybridValidator(schema: object, viaAjv: Validate): Validate {
  let interpreter: Interpreter | undefined;
  let useAjv = false;
  let calls = 0;
  const interpret = (value: unknown): ValidationOutcome | Promise<ValidationOutcome> => {
    if (++calls === HOT_AFTER) warm(viaAjv, () => (useAjv = true));
    try {
      return (interpreter as Interpreter).validate(value).valid ? { ok: true, value } : viaAjv(value);
    } catch {
      useAjv = true; // something the interpreter cannot handle: ajv decides, now and later
      return viaAjv(value);
    }
  };
  return (value) => {
    if (useAjv) return viaAjv(value);
    if (interpreter) return interpret(value);
    return loadInterpreter().then(
      ({ Interpreter, meta }) => {
        try {
          if (!useAjv && meta.validate(schema).valid)
            interpreter ??= new Interpreter(schema, '2020-12', true);
        } catch {
          // a schema the interpreter cannot read: ajv decides
        }
        return interpreter ? interpret(value) : ((useAjv = true), viaAjv(value));
      },
      () => ((useAjv = true), viaAjv(value)), // no interpreter here: ajv does it all
    );
  };
}

/** Compiles with ajv in the background (a first call loads and compiles), then switches. */
function warm(viaAjv: Validate, ready: () => void): void {
  Promise.resolve()
    .then(() => viaAjv(undefined))
    .then(ready, ready); // a schema ajv refuses is reported by ajv from then on
}
