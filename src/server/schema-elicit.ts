/**
 * Form elicitation described by a Standard Schema (zod v4…): the schema is sent as its JSON
 * Schema form, and an accepted answer is checked with the schema itself, so the handler
 * gets `content` typed and parsed. Source: 2026-07-28 client/elicitation "Form mode";
 * Standard Schema v1 and Standard JSON Schema v1.
 */
import { WireError, type ElicitRequestFormParams, type ElicitResult } from '../core/index.js';
import {
  compileSchema,
  isStandardSchema,
  type CompiledSchema,
  type SchemaLimits,
  type StandardJsonSchema,
} from '../validation/index.js';

/** Form elicitation params whose `requestedSchema` is a Standard Schema of a flat object. */
export interface SchemaElicitParams<S extends StandardJsonSchema> {
  mode?: 'form';
  /** What to ask the user. */
  message: string;
  /** A Standard Schema (with JSON Schema support) of an object of primitive fields. */
  requestedSchema: S;
}

/** The answer to a {@link SchemaElicitParams} elicitation: `content` is the schema's output. */
export type SchemaElicitResult<T> =
  | { action: 'accept'; content: T; _meta?: Record<string, unknown> }
  | { action: 'decline' | 'cancel'; content?: undefined; _meta?: Record<string, unknown> };

// Compiled once per schema object and server limits, however many requests ask with it.
const compiled = new WeakMap<object, WeakMap<object, CompiledSchema>>();
const DEFAULT_LIMITS: SchemaLimits = {};

/** True when `params` is a form elicitation whose `requestedSchema` is a Standard Schema. */
export function hasSchemaObject(params: object): params is SchemaElicitParams<StandardJsonSchema> {
  return isStandardSchema((params as { requestedSchema?: unknown }).requestedSchema);
}

/**
 * Asks with the schema's JSON Schema on the wire, then checks an accepted answer with the
 * schema; `limits` are the server's `limits.schema` (the JSON Schema form must keep to them).
 * @throws LocalError `INVALID_DEFINITION` for a schema without JSON Schema support or over `limits`;
 * WireError -32602 when an accepted answer does not match (the client broke
 * client/elicitation "Response actions": accepted content must match the requested schema).
 */
export async function elicitWithSchema(
  params: SchemaElicitParams<StandardJsonSchema>,
  ask: (wire: ElicitRequestFormParams) => Promise<ElicitResult>,
  limits: SchemaLimits = DEFAULT_LIMITS,
): Promise<SchemaElicitResult<unknown>> {
  const schema = compiledOf(params.requestedSchema, limits);
  const { requestedSchema: _schema, ...rest } = params;
  const wire = { ...rest, requestedSchema: schema.jsonSchema as ElicitRequestFormParams['requestedSchema'] };
  const result = await ask(wire);
  if (result.action !== 'accept') return { ...result, action: result.action, content: undefined };
  const checked = await schema.validate(result.content);
  if (!checked.ok)
    throw WireError.of(
      'InvalidParams',
      `The elicitation answer does not match the requested schema: ${checked.issues.join('; ')}`,
    );
  return { ...result, action: 'accept', content: checked.value };
}

function compiledOf(schema: StandardJsonSchema, limits: SchemaLimits): CompiledSchema {
  let byLimits = compiled.get(limits);
  if (!byLimits) compiled.set(limits, (byLimits = new WeakMap()));
  let entry = byLimits.get(schema);
  if (!entry) byLimits.set(schema, (entry = compileSchema(schema, limits, 'elicitation requestedSchema')));
  return entry;
}
