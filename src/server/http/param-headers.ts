/**
 * `Mcp-Param-{Name}` headers: tool parameters whose schema carries `x-mcp-header` are
 * mirrored into headers by the client; the server checks each against the body.
 * Source: 2026-07-28 basic/transports/streamable-http "Custom Headers from Tool
 * Parameters", "Value Encoding", "Server Behavior for Custom Headers".
 */
import { McpError } from '../../core/errors.js';
import type { JsonRpcRequest, Params } from '../../core/jsonrpc.js';
import { isObject } from '../../core/jsonrpc.js';
import { LATEST_REVISION, META } from '../../core/revisions.js';
import type { McpServer } from '../server.js';
import { decodeHeaderValue } from './headers.js';
import type { HeaderReader } from './exchange.js';

/** One annotated parameter: the header name part and the property path in `arguments`. */
export interface ParamHeader {
  name: string;
  path: string[];
}

/** The `x-mcp-header` annotations of an input schema, following nested `properties`. */
export function annotatedParams(schema: unknown, path: string[] = []): ParamHeader[] {
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  return Object.entries(schema.properties).flatMap(([key, sub]) => {
    const here = [...path, key];
    const own =
      isObject(sub) && typeof sub['x-mcp-header'] === 'string'
        ? [{ name: sub['x-mcp-header'], path: here }]
        : [];
    return [...own, ...annotatedParams(sub, here)];
  });
}

function valueAt(args: unknown, path: string[]): unknown {
  return path.reduce<unknown>((v, key) => (isObject(v) ? v[key] : undefined), args);
}

function matches(header: string, value: unknown): boolean {
  if (typeof value === 'number') return header.trim() !== '' && Number(header) === value;
  if (typeof value === 'boolean') return header === String(value);
  return header === value;
}

/**
 * Checks the `Mcp-Param-*` headers of a `tools/call` against its arguments.
 * @returns McpError -32020 for a missing, undecodable or mismatching header.
 */
export function checkParamHeaders(
  headers: HeaderReader,
  params: Params | undefined,
  annotated: ParamHeader[],
): McpError | undefined {
  for (const { name, path } of annotated) {
    const value = valueAt(params?.arguments, path);
    if (value === undefined || value === null) continue;
    const raw = headers.get(`mcp-param-${name}`);
    const decoded = raw === null ? undefined : decodeHeaderValue(raw);
    if (decoded === undefined || !matches(decoded, value))
      return McpError.of(
        'HeaderMismatch',
        `Header mismatch: Mcp-Param-${name} ${raw === null ? 'is missing' : 'does not match the body'}`,
      );
  }
  return undefined;
}

/** Reads every page of the server's tool list (as a modern client would see it). */
async function listTools(server: McpServer): Promise<Map<string, ParamHeader[]>> {
  const found = new Map<string, ParamHeader[]>();
  const channel = { signal: new AbortController().signal, notify: () => undefined };
  const meta = { [META.protocolVersion]: LATEST_REVISION, [META.clientCapabilities]: {} };
  let cursor: unknown;
  do {
    const params: Params = cursor === undefined ? { _meta: meta } : { cursor, _meta: meta };
    const page = await server.handle({ jsonrpc: '2.0', id: 0, method: 'tools/list', params }, channel);
    for (const tool of (page.tools ?? []) as { name: string; inputSchema?: unknown }[])
      found.set(tool.name, annotatedParams(tool.inputSchema));
    cursor = page.nextCursor;
  } while (typeof cursor === 'string');
  return found;
}

/**
 * The per-handler check of `Mcp-Param-*` headers. Tool annotations are read once and
 * again after each tool list change; `close` stops watching for changes.
 */
export function paramHeaderCheck(server: McpServer): {
  check(headers: HeaderReader, request: JsonRpcRequest): Promise<McpError | undefined>;
  close(): void;
} {
  let tools: Promise<Map<string, ParamHeader[]>> | undefined;
  const close = server.eventBus.subscribe((event) => {
    if (event.type === 'toolsListChanged') tools = undefined;
  });
  return {
    close,
    async check(headers, request) {
      if (request.method !== 'tools/call' || typeof request.params?.name !== 'string') return undefined;
      tools ??= listTools(server).catch(() => new Map<string, ParamHeader[]>());
      const annotated = (await tools).get(request.params.name) ?? [];
      return annotated.length === 0 ? undefined : checkParamHeaders(headers, request.params, annotated);
    },
  };
}
