/**
 * The operations of a dereferenced OpenAPI document, each described as an MCP tool would
 * need it: a name, an input schema (parameters and request body) and an output schema
 * (the first 2xx JSON response). What cannot be described is an {@link OperationIssue}
 * for that operation alone.
 * Source: OpenAPI 3.1.0 §4.8.9 "Path Item Object", §4.8.10 "Operation Object",
 * §4.8.12 "Parameter Object", §4.8.13 "Request Body Object"; MCP 2026-07-28 server/tools (tool names).
 */
import { isObject } from '../core/runtime.js';
import { SchemaProblem, toJsonSchema, type ConvertOptions, type Dialect } from './schema.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** MCP tool names: 1–128 of these characters (server/tools "Tool Names"). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** Header parameters OpenAPI says to ignore (§4.8.12.1). */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** Where a parameter goes in the HTTP request. */
export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

/** One parameter, with the argument name it has in the tool's input. */
export interface OperationParameter {
  name: string;
  in: ParameterLocation;
  /** The tool argument holding it (the name, or `<in>_<name>` when two locations share a name). */
  argument: string;
  required: boolean;
  /** OpenAPI `explode` (default true for `form` style, i.e. query and cookie). */
  explode: boolean;
  style: string;
}

/** An operation ready to become a tool or a resource. */
export interface OperationSpec {
  /** `GET /pet/{petId}`: how issues and route maps name it. */
  key: string;
  method: string;
  path: string;
  name: string;
  operationId?: string;
  tags: readonly string[];
  title?: string;
  description?: string;
  parameters: OperationParameter[];
  /** The request body's media type and whether it is required; its argument is `body`. */
  body?: { mediaType: string; required: boolean };
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  deprecated: boolean;
}

/** An operation left out, and why. */
export interface OperationIssue {
  /** `GET /pet/{petId}`. */
  operation: string;
  operationId?: string;
  message: string;
}

/** Describes every operation of `document`; the ones that cannot be described become issues. */
export function describeOperations(
  document: Record<string, unknown>,
  options: { dialect: Dialect; refErrors: ReadonlyArray<{ path: readonly string[]; message: string }> },
): { operations: OperationSpec[]; issues: OperationIssue[] } {
  const operations: OperationSpec[] = [];
  const issues: OperationIssue[] = [];
  const names = new Set<string>();
  for (const [path, item] of Object.entries(document.paths as Record<string, unknown>)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const key = `${method.toUpperCase()} ${path}`;
      const operationId = typeof operation.operationId === 'string' ? operation.operationId : undefined;
      const refError = options.refErrors.find(
        (e) =>
          e.path[0] === 'paths' && e.path[1] === path && (e.path[2] === method || e.path[2] === 'parameters'),
      );
      if (refError) {
        issues.push({ operation: key, ...(operationId ? { operationId } : {}), message: refError.message });
        continue;
      }
      try {
        const spec = describe({ path, method, item, operation, dialect: options.dialect, document });
        if (names.has(spec.name))
          throw new SchemaProblem(`tool name '${spec.name}' is already taken by another operation`);
        names.add(spec.name);
        operations.push(spec);
      } catch (error) {
        if (!(error instanceof SchemaProblem)) throw error;
        issues.push({ operation: key, ...(operationId ? { operationId } : {}), message: error.message });
      }
    }
  }
  return { operations, issues };
}

interface Source {
  path: string;
  method: string;
  item: Record<string, unknown>;
  operation: Record<string, unknown>;
  dialect: Dialect;
  document: Record<string, unknown>;
}

/** How one tool schema converts: the document, and the `$defs` its recursive schemas go to. */
type Context = Omit<ConvertOptions, 'direction'> & { defs: Record<string, unknown> };

function describe(source: Source): OperationSpec {
  const { path, method, operation, dialect, document } = source;
  const input: Context = { dialect, document, defs: {} };
  const parameters = parametersOf(source);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of parameters) {
    properties[p.spec.argument] = parameterSchema(p.raw, input);
    if (p.spec.required) required.push(p.spec.argument);
  }
  const body = bodyOf(operation.requestBody, input);
  if (body) {
    if ('body' in properties)
      throw new SchemaProblem("a parameter named 'body' collides with the request body");
    properties.body = body.schema;
    if (body.required) required.push('body');
  }
  const summary = typeof operation.summary === 'string' ? operation.summary : undefined;
  const description =
    typeof operation.description === 'string' && operation.description !== ''
      ? operation.description
      : summary;
  const outputSchema = outputOf(operation.responses, { dialect, document, defs: {} });
  return {
    key: `${method.toUpperCase()} ${path}`,
    method: method.toUpperCase(),
    path,
    name: toolName(operation.operationId, method, path),
    ...(typeof operation.operationId === 'string' ? { operationId: operation.operationId } : {}),
    tags: Array.isArray(operation.tags)
      ? operation.tags.filter((t): t is string => typeof t === 'string')
      : [],
    ...(summary ? { title: summary } : {}),
    ...(description ? { description } : {}),
    parameters: parameters.map((p) => p.spec),
    ...(body ? { body: { mediaType: body.mediaType, required: body.required } } : {}),
    inputSchema: {
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
      additionalProperties: false,
      ...(Object.keys(input.defs).length ? { $defs: input.defs } : {}),
    },
    ...(outputSchema ? { outputSchema } : {}),
    deprecated: operation.deprecated === true,
  };
}

/**
 * The tool's name: the `operationId` with characters MCP does not allow replaced by `_`, or
 * `<method>_<path>` without one.
 * @throws SchemaProblem when that leaves no usable name (empty, or over 128 characters).
 */
function toolName(operationId: unknown, method: string, path: string): string {
  if (operationId !== undefined && typeof operationId !== 'string')
    throw new SchemaProblem('operationId is not a string: no usable tool name');
  const raw = operationId ?? `${method}_${path}`;
  const name = raw
    .replace(/[{}]/g, '')
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!TOOL_NAME.test(name))
    throw new SchemaProblem(
      `no usable tool name (from ${JSON.stringify(raw.slice(0, 200))}: 1–128 of A–Z a–z 0–9 _ . -)`,
    );
  return name;
}

/** Operation parameters over path-item ones (same name and location), with their argument names. */
function parametersOf(source: Source): Array<{ spec: OperationParameter; raw: Record<string, unknown> }> {
  const merged = new Map<string, Record<string, unknown>>();
  for (const list of [source.item.parameters, source.operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const p of list) {
      if (!isObject(p) || typeof p.name !== 'string' || !isLocation(p.in))
        throw new SchemaProblem('a parameter has no usable name or location');
      if (p.in === 'header' && IGNORED_HEADERS.has(p.name.toLowerCase())) continue;
      merged.set(`${p.in}:${p.name}`, p);
    }
  }
  const counts = new Map<string, number>();
  for (const p of merged.values()) counts.set(p.name as string, (counts.get(p.name as string) ?? 0) + 1);
  return [...merged.values()].map((raw) => {
    const name = raw.name as string;
    const where = raw.in as ParameterLocation;
    if (where === 'path' && !source.path.includes(`{${name}}`))
      throw new SchemaProblem(`path parameter '${name}' does not appear in the path`);
    const style =
      typeof raw.style === 'string' ? raw.style : where === 'query' || where === 'cookie' ? 'form' : 'simple';
    const spec: OperationParameter = {
      name,
      in: where,
      argument: (counts.get(name) ?? 0) > 1 ? `${where}_${name}` : name,
      required: where === 'path' || raw.required === true,
      explode: typeof raw.explode === 'boolean' ? raw.explode : style === 'form',
      style,
    };
    return { spec, raw };
  });
}

function isLocation(value: unknown): value is ParameterLocation {
  return value === 'path' || value === 'query' || value === 'header' || value === 'cookie';
}

function parameterSchema(raw: Record<string, unknown>, context: Context): unknown {
  let schema: unknown = raw.schema;
  if (schema === undefined && isObject(raw.content))
    schema = Object.values(raw.content).find(isObject)?.schema;
  const converted = toJsonSchema(schema ?? {}, { ...context, direction: 'request' });
  if (typeof raw.description !== 'string' || !isObject(converted) || 'description' in converted)
    return converted;
  return { ...converted, description: raw.description };
}

/** JSON first, then form-encoded, then text; other media types cannot be sent from tool arguments. */
function bodyOf(
  raw: unknown,
  context: Context,
): { mediaType: string; required: boolean; schema: unknown } | undefined {
  if (!isObject(raw) || !isObject(raw.content)) return undefined;
  const types = Object.keys(raw.content);
  const mediaType =
    types.find(isJson) ??
    types.find((t) => t === 'application/x-www-form-urlencoded') ??
    types.find((t) => t.startsWith('text/'));
  if (mediaType === undefined)
    throw new SchemaProblem(
      `request body media type ${types.join(', ') || '(none)'} is not supported (JSON, form or text)`,
    );
  const media = raw.content[mediaType];
  const schema = toJsonSchema(isObject(media) ? (media.schema ?? {}) : {}, {
    ...context,
    direction: 'request',
  });
  const described =
    typeof raw.description === 'string' && isObject(schema) && !('description' in schema)
      ? { ...schema, description: raw.description }
      : schema;
  return { mediaType, required: raw.required === true, schema: described };
}

/** The schema of the first 2xx response (by status code) with a JSON body. */
function outputOf(responses: unknown, context: Context): Record<string, unknown> | undefined {
  if (!isObject(responses)) return undefined;
  const codes = Object.keys(responses)
    .filter((c) => /^2(\d\d|XX)$/i.test(c))
    .sort();
  for (const code of codes) {
    const response = responses[code];
    if (!isObject(response) || !isObject(response.content)) continue;
    const json = Object.keys(response.content).find(isJson);
    const media = json === undefined ? undefined : response.content[json];
    if (!isObject(media) || media.schema === undefined) continue;
    const schema = toJsonSchema(media.schema, { ...context, direction: 'response' });
    return isObject(schema) ? withDefs(schema, context.defs) : undefined;
  }
  return undefined;
}

/**
 * An output schema with the `$defs` its recursive `$ref`s name. A root that is only a
 * `$ref` takes its target's keywords, so the root still says `type: "object"`.
 */
function withDefs(schema: Record<string, unknown>, defs: Record<string, unknown>): Record<string, unknown> {
  if (Object.keys(defs).length === 0) return schema;
  const ref = typeof schema.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  const target = ref === undefined ? undefined : defs[ref];
  const { $ref: _ref, ...rest } = schema;
  const root = isObject(target) ? { ...target, ...rest } : schema;
  return { ...root, $defs: defs };
}

/** `application/json`, or any `+json` media type (RFC 6839). */
export function isJson(mediaType: string): boolean {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}
