/**
 * The interpreting JSON Schema engine, for runtimes without code generation (engine.ts):
 * @cfworker/json-schema with ajv's format checks and RE2 patterns, so its verdicts and
 * bounds are those of the compiled engine. Loaded on the first validation, as one chunk.
 *
 * - Dialects: 2020-12, 2019-09 and draft-07, each schema checked against its meta-schema
 *   (the documents ajv ships, which `$ref` may also name) and its references resolved
 *   before first use, as ajv does when compiling; nothing is fetched. `$dynamicRef` is
 *   refused: the interpreter has no dynamic scope.
 * - `pattern` and `patternProperties` run on RE2 (safe-regexp.ts), compiled once per schema
 *   under its limits: the interpreter builds its expressions with the global `RegExp`, which
 *   is pointed at those compiled patterns for the span of one synchronous validation.
 * - `format`: ajv-formats' checks, the same linear ones the compiled engine uses; the
 *   interpreter's own table is replaced by them (it is one per process).
 * - `uniqueItems`: the interpreter compares every pair of items, so an array longer than
 *   {@link MAX_UNIQUE_ITEMS} under such a schema is refused instead of checked.
 * Source: 2026-07-28 basic/index "JSON Schema Usage"; JSON Schema 2020-12 core §9.1.2.
 */
import { Validator, format as interpreterFormats } from '@cfworker/json-schema';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import legacyMeta from './meta-legacy.json' with { type: 'json' };
import { LocalError } from '../core/index.js';
import { META_2020_12 } from './lazy-interpreter.js';
import { PATTERN_DEFAULTS, schemaPatterns, withPatternLimits, type PatternLimits } from './patterns.js';
import { safeRegExp, type SafeRegExp } from './safe-regexp.js';
import { linearStringFormats } from './safe-formats.js';
import { describeUnits } from './interpreted-errors.js';
import type { ValidationOutcome } from './types.js';

/** Longest array checked for `uniqueItems` without code generation (pairwise comparison). */
const MAX_UNIQUE_ITEMS = 2000;

type Draft = '2020-12' | '2019-09' | '7';
const DRAFTS: Record<string, Draft> = {
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'https://json-schema.org/draft/2019-09/schema': '2019-09',
  'http://json-schema.org/draft-07/schema': '7',
};
const META_DOCUMENTS: Record<Draft, readonly object[]> = {
  '2020-12': META_2020_12,
  // ajv's documents of the two dialects (lazy-interpreter.test.ts keeps them equal), without ajv.
  '2019-09': legacyMeta['2019-09'],
  '7': legacyMeta['7'],
};

/** A schema ready to validate with the interpreter. */
export interface InterpretedSchema {
  validate(value: unknown): ValidationOutcome;
}

const NativeRegExp = RegExp;
let patterns: ReadonlyMap<string, SafeRegExp> | undefined;

/** What `new RegExp(pattern, flags)` gives the interpreter during a validation: the RE2 form. */
function LinearRegExp(pattern: string, flags?: string): SafeRegExp {
  const compiled = patterns?.get(pattern);
  if (compiled) return compiled;
  return native(() => safeRegExp(pattern, flags ?? ''));
}

/** Runs `work` with the global `RegExp` the platform's own (ajv-formats' `regex` check builds one). */
function native<T>(work: () => T): T {
  const global = globalThis as { RegExp: unknown };
  const before = global.RegExp;
  global.RegExp = NativeRegExp;
  try {
    return work();
  } finally {
    global.RegExp = before;
  }
}

function withLinearRegExp<T>(compiled: ReadonlyMap<string, SafeRegExp>, work: () => T): T {
  const global = globalThis as { RegExp: unknown };
  const before = { regExp: global.RegExp, patterns };
  global.RegExp = LinearRegExp;
  patterns = compiled;
  try {
    return work();
  } finally {
    global.RegExp = before.regExp;
    patterns = before.patterns;
  }
}

let formatsReady = false;

/** Puts ajv's format checks in the interpreter's table, once. */
function useAjvFormats(): void {
  if (formatsReady) return;
  const table = interpreterFormats as Record<string, ((value: string) => boolean) | undefined>;
  for (const name of Object.keys(table)) delete table[name];
  for (const [name, check] of linearStringFormats(fullFormats as Record<string, unknown>))
    table[name] = name === 'regex' ? (value) => native(() => check(value)) : check;
  formatsReady = true;
}

const metaValidators = new Map<Draft, Validator>();

function metaValidator(draft: Draft): Validator {
  let validator = metaValidators.get(draft);
  if (!validator) {
    const [root, ...vocabularies] = META_DOCUMENTS[draft];
    validator = new Validator(root as object, draft, true);
    for (const document of vocabularies) validator.addSchema(document as object);
    metaValidators.set(draft, validator);
  }
  return validator;
}

function invalid(message: string, cause?: unknown): LocalError {
  return new LocalError('INVALID_DEFINITION', `Invalid JSON Schema: ${message}`, { cause });
}

/**
 * Prepares `schema` (already within the bounds, its patterns' syntax checked) of
 * `dialect` (a `$schema` URI without `#`) for the interpreter.
 * @throws LocalError `INVALID_DEFINITION` for a schema its meta-schema rejects, a
 *   `$dynamicRef`, a reference that does not resolve inside the schema, or a pattern
 *   over `maxPatternProgram`.
 */
export function interpretSchema(schema: object, dialect: string, limits?: PatternLimits): InterpretedSchema {
  const draft = DRAFTS[dialect] ?? '2020-12';
  useAjvFormats();
  const meta = metaValidator(draft).validate(schema);
  if (!meta.valid) throw invalid(`schema is invalid: ${describeUnits(meta.errors, {}, schema).join('; ')}`);
  const own = JSON.parse(JSON.stringify(schema)) as object; // the interpreter writes into the schema it reads
  const nodes = [...subschemas(own)];
  if (nodes.some((node) => '$dynamicRef' in node))
    throw invalid('$dynamicRef is not supported without code generation (engine "interpreted")');
  const merged = { ...PATTERN_DEFAULTS, ...limits };
  const compiled = new Map<string, SafeRegExp>();
  for (const pattern of schemaPatterns(own)) compiled.set(pattern, safeRegExp(pattern, 'u', merged));
  const validator = new Validator(own, draft, false);
  for (const document of META_DOCUMENTS[draft]) validator.addSchema(document as object); // `$ref` to the meta-schema resolves, as in ajv
  checkReferences(nodes, (validator as unknown as { lookup: Record<string, unknown> }).lookup);
  const unique = nodes.some((node) => node.uniqueItems === true);
  return {
    validate(value) {
      const tooLong = unique ? longArray(value, '') : undefined;
      if (tooLong !== undefined) return { ok: false, issues: [tooLongIssue(tooLong)] };
      const result = withPatternLimits(limits, () =>
        withLinearRegExp(compiled, () => validator.validate(value)),
      );
      return result.valid
        ? { ok: true, value }
        : { ok: false, issues: describeUnits(result.errors, own, value) };
    },
  };
}

function tooLongIssue(path: string): string {
  const where = path === '' ? 'the value' : `'${path}'`;
  return `${where} has more than ${MAX_UNIQUE_ITEMS} items, the most checked for uniqueItems without code generation`;
}

/** Every object node of a schema (subschemas and keyword values alike). */
function* subschemas(node: unknown): Generator<Record<string, unknown>> {
  if (typeof node !== 'object' || node === null) return;
  if (!Array.isArray(node)) yield node as Record<string, unknown>;
  for (const child of Object.values(node)) yield* subschemas(child);
}

/** Fails now, as ajv's compile does, for a `$ref` that resolves to nothing in the schema. */
function checkReferences(nodes: readonly Record<string, unknown>[], lookup: Record<string, unknown>): void {
  for (const node of nodes) {
    if (typeof node.$ref !== 'string') continue;
    const absolute = (node as { __absolute_ref__?: string }).__absolute_ref__ ?? node.$ref;
    if (lookup[absolute] === undefined) throw invalid(`can't resolve reference ${node.$ref}`);
  }
}

/** The JSON pointer of the first array in `value` longer than {@link MAX_UNIQUE_ITEMS}, if any. */
function longArray(value: unknown, path: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value) && value.length > MAX_UNIQUE_ITEMS) return path;
  for (const [key, child] of Object.entries(value)) {
    if (typeof child !== 'object' || child === null) continue;
    const found = longArray(child, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (found !== undefined) return found;
  }
  return undefined;
}
