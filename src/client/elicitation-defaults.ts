/**
 * Filling omitted form fields with the defaults the server's `requestedSchema` declares.
 * Source: 2025-11-25 and 2026-07-28 client/elicitation "Supported schema types" (each
 * primitive schema may carry a `default`).
 */
import { isObject, setOwn } from '../core/runtime.js';
import type { ElicitResult } from '../core/index.js';

/** The content of an accepted form-mode elicitation answer. */
export type ElicitContent = NonNullable<ElicitResult['content']>;

/**
 * Returns `content` with every property of `requestedSchema` that the content omits set to
 * that property's `default`. Fields the user gave are kept as they are; properties without
 * a default stay omitted. Never throws: a schema without `properties` changes nothing.
 */
export function applyElicitationDefaults(
  requestedSchema: unknown,
  content: ElicitContent | undefined,
): ElicitContent {
  const filled: ElicitContent = { ...content };
  for (const [key, property] of Object.entries(propertiesOf(requestedSchema))) {
    if (Object.hasOwn(filled, key) || !isObject(property) || property.default === undefined) continue;
    setOwn(filled, key, property.default as ElicitContent[string]);
  }
  return filled;
}

/**
 * Applies {@link applyElicitationDefaults} to an accepted form-mode answer of
 * `elicitation/create`; any other answer is returned unchanged.
 */
export function withElicitationDefaults(params: unknown, result: ElicitResult): ElicitResult {
  if (result.action !== 'accept' || !isObject(params) || !isObject(params.requestedSchema)) return result;
  return { ...result, content: applyElicitationDefaults(params.requestedSchema, result.content) };
}

function propertiesOf(schema: unknown): Record<string, unknown> {
  return isObject(schema) && isObject(schema.properties) ? schema.properties : {};
}
