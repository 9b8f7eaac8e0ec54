/**
 * Validation where code generation is unavailable (engine.ts decides): every schema is
 * interpreted (interpreter-engine.ts, loaded on the first validation), never handed to ajv.
 * Equal schemas under equal bounds share one prepared validator.
 * Source: 2026-07-28 basic/index "JSON Schema Usage".
 */
import type { PatternLimits } from './patterns.js';
import type { InterpretedSchema } from './interpreter-engine.js';
import type { ValidationOutcome } from './types.js';

/** What one interpreted validator prepares: the schema, its dialect and bounds, and its cache key. */
export interface Interpreting {
  dialect: string;
  schema: object;
  key: string;
  limits: PatternLimits | undefined;
}

type Prepare = typeof import('./interpreter-engine.js').interpretSchema;

let loading: Promise<Prepare> | undefined;
let loaded: Prepare | undefined;
const MAX_CACHED = 500;
const prepared = new Map<string, InterpretedSchema>();

function prepare(
  interpretSchema: Prepare,
  { dialect, schema, key, limits }: Interpreting,
): InterpretedSchema {
  const cached = prepared.get(key);
  if (cached) return cached;
  const ready = interpretSchema(schema, dialect, limits);
  if (prepared.size >= MAX_CACHED) prepared.delete(prepared.keys().next().value as string);
  prepared.set(key, ready);
  return ready;
}

/**
 * A validator that interprets the schema: a promise on the first call (the engine loads
 * and the schema is prepared), synchronous after. Rejects with LocalError
 * `INVALID_DEFINITION` for a schema the engine refuses (see interpretSchema).
 */
export function interpretedValidator(
  interpreting: Interpreting,
): (value: unknown) => ValidationOutcome | Promise<ValidationOutcome> {
  let ready: InterpretedSchema | undefined;
  return (value) => {
    if (ready) return ready.validate(value);
    if (loaded) return (ready = prepare(loaded, interpreting)).validate(value);
    loading ??= import('./interpreter-engine.js').then(({ interpretSchema }) => (loaded = interpretSchema));
    return loading.then((engine) => (ready ??= prepare(engine, interpreting)).validate(value));
  };
}
