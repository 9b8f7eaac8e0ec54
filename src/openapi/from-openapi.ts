/**
 * `fromOpenApi(spec, options)`: an MCP server whose tools (and, by route map, resources) are
 * the operations of an OpenAPI 3.0 or 3.1 document, each call sent with `fetch` to the
 * configured base URL with the configured headers and credentials.
 * Source: MCP 2026-07-28 server/tools, server/resources; OpenAPI 3.1.0.
 */
import { LocalError, WireError, type ToolAnnotations } from '../core/index.js';
import { createServer, type McpServer, type ServerOptions, type ToolResult } from '../server/index.js';
import { compileSchema } from '../validation/index.js';
import { base64, callOperation, failure, send, type CallSetup } from './call.js';
import { loadDocument } from './load.js';
import { describeOperations, isJson, type OperationIssue, type OperationSpec } from './operations.js';
import type { OpenApiAuth, Upstream } from './request.js';
import { routeOf, type RouteMap } from './routes.js';
import { secretsRedactor } from './secrets.js';

/** Options of {@link fromOpenApi}. */
export interface OpenApiOptions {
  /** The API's base URL (`http:` or `https:`); each operation's path is appended to it. */
  baseUrl: string | URL;
  /** Headers sent on every request. Values of credential-like headers are treated as secrets. */
  headers?: Record<string, string>;
  /** How requests authenticate; its values are secrets and never appear in a result. */
  auth?: OpenApiAuth;
  /** Which operations become tools, resources or nothing (first match wins; default: tools). */
  routes?: readonly RouteMap[];
  /** Per-call timeout in milliseconds; default 30 000. */
  timeoutMs?: number;
  /** Largest upstream answer read, in bytes; default 5 MiB. */
  maxResponseBytes?: number;
  /** The `fetch` to use (default the global one). */
  fetch?: typeof fetch;
  /** Add to this server instead of creating one. */
  server?: McpServer;
  /** Options of the created server; its name and version default to the document's `info`. */
  serverOptions?: Partial<ServerOptions>;
}

/** The server made from a document, and what of the document it serves. */
export interface OpenApiServer {
  server: McpServer;
  /** Names of the tools registered, in document order. */
  tools: string[];
  /** URIs (or URI templates) of the resources registered. */
  resources: string[];
  /** Operations left out, one entry each, with the reason. */
  issues: OperationIssue[];
}

/**
 * Loads `spec` (a document object, or the path or URL of a JSON/YAML document) and serves
 * its operations. Operations that cannot be served (unresolvable or recursive `$ref`s, no
 * usable name, an unsupported body type) are listed in `issues`; the rest are served.
 * @throws LocalError `INVALID_ARGUMENT` for an unreadable document, one that is not
 *   OpenAPI 3.0/3.1, or a base URL that is not http(s).
 */
export async function fromOpenApi(spec: string | object, options: OpenApiOptions): Promise<OpenApiServer> {
  const upstream = upstreamOf(options);
  const loaded = await loadDocument(spec);
  const { operations, issues } = describeOperations(loaded.document, loaded);
  const info = (loaded.document.info ?? {}) as { title?: unknown; version?: unknown };
  const server =
    options.server ??
    createServer({
      name: typeof info.title === 'string' ? info.title : 'openapi',
      version: typeof info.version === 'string' ? info.version : '0.0.0',
      ...options.serverOptions,
    });
  const setup: Omit<CallSetup, 'output'> = {
    upstream,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    timeoutMs: options.timeoutMs ?? 30_000,
    maxResponseBytes: options.maxResponseBytes ?? 5 * 1024 * 1024,
    redact: secretsRedactor(options),
  };
  const served: OpenApiServer = { server, tools: [], resources: [], issues };
  for (const operation of operations) {
    const target = routeOf(operation, options.routes ?? []);
    if (target === 'exclude') continue;
    try {
      if (target === 'tool') served.tools.push(addTool(server, operation, setup));
      else served.resources.push(addResource(server, operation, setup));
    } catch (error) {
      if (!(error instanceof LocalError)) throw error;
      issues.push({ operation: operation.key, ...idOf(operation), message: error.message });
    }
  }
  return served;
}

function upstreamOf(options: OpenApiOptions): Upstream {
  let baseUrl: URL;
  try {
    baseUrl = new URL(options.baseUrl);
  } catch {
    throw new LocalError(
      'INVALID_ARGUMENT',
      `base URL ${JSON.stringify(String(options.baseUrl))} is not a URL`,
    );
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:')
    throw new LocalError('INVALID_ARGUMENT', 'the base URL must be http: or https:');
  if (baseUrl.username || baseUrl.password)
    throw new LocalError('INVALID_ARGUMENT', 'put credentials in `auth`, not in the base URL');
  baseUrl.search = '';
  baseUrl.hash = '';
  return { baseUrl, headers: { ...options.headers }, ...(options.auth ? { auth: options.auth } : {}) };
}

function idOf(operation: OperationSpec): { operationId?: string } {
  return operation.operationId ? { operationId: operation.operationId } : {};
}

function annotationsOf(operation: OperationSpec): ToolAnnotations {
  const readOnly = operation.method === 'GET' || operation.method === 'HEAD';
  return {
    readOnlyHint: readOnly,
    destructiveHint: operation.method === 'DELETE',
    idempotentHint: readOnly || operation.method === 'PUT' || operation.method === 'DELETE',
    openWorldHint: true,
  };
}

/** Registers `operation` as a tool. @throws LocalError `INVALID_DEFINITION` for a schema the server refuses. */
function addTool(server: McpServer, operation: OperationSpec, base: Omit<CallSetup, 'output'>): string {
  const setup: CallSetup = operation.outputSchema
    ? {
        ...base,
        output: compileSchema(operation.outputSchema, undefined, `tool '${operation.name}' outputSchema`),
      }
    : base;
  const handler = (args: Record<string, unknown>, ctx: { signal: AbortSignal }): Promise<ToolResult> =>
    callOperation(operation, args, { setup, signal: ctx.signal });
  const definition = {
    ...(operation.title ? { title: operation.title } : {}),
    ...(operation.description ? { description: operation.description } : {}),
    inputSchema: operation.inputSchema,
    annotations: annotationsOf(operation),
    _meta: { 'io.mcpkit/openapi': { method: operation.method, path: operation.path } },
  };
  if (operation.outputSchema)
    server.tool(operation.name, { ...definition, outputSchema: operation.outputSchema }, handler as never);
  else server.tool(operation.name, definition, handler);
  return operation.name;
}

/**
 * Registers a GET `operation` as a resource at `<base URL><path>`: a fixed one, or a
 * template whose variables are the path parameters.
 * @throws LocalError `INVALID_DEFINITION` for another method or a required query/header parameter.
 */
function addResource(server: McpServer, operation: OperationSpec, setup: Omit<CallSetup, 'output'>): string {
  if (operation.method !== 'GET')
    throw new LocalError('INVALID_DEFINITION', 'only GET operations can be resources');
  const extra = operation.parameters.find((p) => p.in !== 'path' && p.required);
  if (extra)
    throw new LocalError(
      'INVALID_DEFINITION',
      `a resource cannot take the required ${extra.in} parameter '${extra.name}'`,
    );
  const uri = setup.upstream.baseUrl.href.replace(/\/+$/, '') + operation.path;
  const metadata = {
    name: operation.name,
    ...(operation.title ? { title: operation.title } : {}),
    ...(operation.description ? { description: operation.description } : {}),
  };
  const read = async (href: string, args: Record<string, string>, signal: AbortSignal) => {
    let answer;
    try {
      answer = await send(operation, args, { setup, signal });
    } catch (error) {
      throw WireError.of(
        'InternalError',
        setup.redact(`${operation.name} (${operation.key}): ${failure(error, setup.timeoutMs)}`),
      );
    }
    const what = `${operation.name} (${operation.key}): upstream answered HTTP ${answer.status}`;
    if (answer.status === 404) throw WireError.of('ResourceNotFound', setup.redact(what), { uri: href });
    if (answer.status < 200 || answer.status > 299) throw WireError.of('InternalError', setup.redact(what));
    const mimeType = answer.mediaType || 'application/octet-stream';
    const textual = isJson(mimeType) || mimeType.startsWith('text/');
    const body = textual
      ? { text: setup.redact(new TextDecoder().decode(answer.bytes)) }
      : { blob: base64(answer.bytes) };
    return [{ uri: href, mimeType, ...body }];
  };
  if (operation.parameters.some((p) => p.in === 'path'))
    server.resourceTemplate(uri, metadata, (href, variables, ctx) => read(href, variables, ctx.signal));
  else server.resource(uri, metadata, (href, ctx) => read(href, {}, ctx.signal));
  return uri;
}
