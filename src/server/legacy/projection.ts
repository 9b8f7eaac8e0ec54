/**
 * What a legacy session sees of shapes only 2026-07-28 allows. One server definition serves
 * both eras, so wherever the modern revision is looser the legacy wire gets a projection:
 * - `extensions` in capabilities (2026-07-28 "Minor changes" 1) is not in the 2025-11-25
 *   schema, whose capability objects are open: SEP-2133 negotiates extensions in
 *   `initialize`, so the result declares only the extensions served on legacy (not Tasks:
 *   SEP-2663 "Backward Compatibility") and the client's declaration is kept for them;
 * - an `outputSchema` whose root is not `type: "object"` and a `structuredContent` that is
 *   not an object (SEP-2106) are wrapped as `{ result: … }`, the schema as
 *   `{ type: "object", properties: { result: <schema> }, required: ["result"] }`;
 * - boolean property schemas (`{ "x": true }`) become `{}` / `{ "not": {} }`, since the
 *   2025-11-25 `Tool` schema wants each property schema to be an object;
 * - a URL-mode elicitation gets the `elicitationId` that 2025-11-25 requires.
 * Source: 2026-07-28 changelog; 2025-11-25 schema (Tool, CallToolResult, ServerCapabilities,
 * ElicitRequestURLParams); SEP-2663 "Backward Compatibility".
 */
import type { ClientCapabilities, Params, ServerCapabilities, Tool } from '../../core/index.js';
import { isObject } from '../../core/runtime.js';

/** The `ServerCapabilities` fields 2025-11-25 defines (its `tasks` is not served by mcpkit). */
const LEGACY_SERVER_FIELDS = ['completions', 'experimental', 'logging', 'prompts', 'resources', 'tools'];

/** The server's capabilities as a legacy `initialize` result states them: without `extensions`. */
export function legacyServerCapabilities(caps: ServerCapabilities): ServerCapabilities {
  const out: Record<string, unknown> = {};
  for (const field of LEGACY_SERVER_FIELDS)
    if (Object.hasOwn(caps, field)) out[field] = (caps as Record<string, unknown>)[field];
  return out as ServerCapabilities;
}

/**
 * A legacy client's declared capabilities as the session keeps them: an object; its
 * `extensions` only when an object (an extension not served on legacy, such as Tasks,
 * is still not enabled by it: the server routes only legacy extensions there).
 */
export function legacyClientCapabilities(declared: unknown): ClientCapabilities {
  if (!isObject(declared)) return {};
  const { extensions, ...rest } = declared as ClientCapabilities;
  return isObject(extensions) ? { ...rest, extensions } : rest;
}

/** A tool as listed to a legacy session, and whether its structured output is wrapped. */
export interface LegacyTool {
  readonly tool: Tool;
  /** True when `structuredContent` travels as `{ result: <value> }` on legacy sessions. */
  readonly wrapsOutput: boolean;
}

/** Projects a tool definition for a legacy session (see the module comment). */
export function legacyTool(tool: Tool): LegacyTool {
  const inputSchema = objectPropertySchemas(tool.inputSchema as Params) as Tool['inputSchema'];
  const output = tool.outputSchema as Params | undefined;
  if (output === undefined) return { tool: { ...tool, inputSchema }, wrapsOutput: false };
  const wrapsOutput = output.type !== 'object';
  const outputSchema = (
    wrapsOutput ? wrapSchema(output) : objectPropertySchemas(output)
  ) as Tool['inputSchema'];
  return { tool: { ...tool, inputSchema, outputSchema }, wrapsOutput };
}

/** Wraps a schema as the one property `result` of an object schema; `$schema` and `$defs` stay at the root so `#/$defs/…` references still resolve. */
function wrapSchema(schema: Params): Params {
  const { $schema, $defs, definitions, ...inner } = schema;
  const wrapped: Params = {};
  if ($schema !== undefined) wrapped.$schema = $schema;
  wrapped.type = 'object';
  wrapped.properties = { result: inner };
  wrapped.required = ['result'];
  if ($defs !== undefined) wrapped.$defs = $defs;
  if (definitions !== undefined) wrapped.definitions = definitions;
  return wrapped;
}

/** The schema with each boolean property schema replaced by its object form. */
function objectPropertySchemas(schema: Params): Params {
  const properties = schema.properties;
  if (!isObject(properties) || !Object.values(properties).some((p) => typeof p === 'boolean')) return schema;
  const out: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(properties))
    Object.defineProperty(out, name, {
      value: p === true ? {} : p === false ? { not: {} } : p,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return { ...schema, properties: out };
}

/**
 * A tool result as a legacy session receives it: `structuredContent` wrapped as
 * `{ result: … }` when the tool's schema is wrapped, or when it is not an object.
 */
export function legacyToolResult(result: Params, wrapsOutput: boolean): Params {
  const structured = result.structuredContent;
  if (structured === undefined || (!wrapsOutput && isObject(structured))) return result;
  return { ...result, structuredContent: { result: structured } };
}

/** Elicitation params for a legacy session: URL mode gets an `elicitationId` when the handler gave none. */
export function legacyElicitParams(params: Params): Params {
  if (params.mode !== 'url' || typeof params.elicitationId === 'string') return params;
  return { ...params, elicitationId: crypto.randomUUID() };
}
