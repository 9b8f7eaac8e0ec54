/**
 * The request metadata headers of a modern POST: `MCP-Protocol-Version`, `Mcp-Method`,
 * `Mcp-Name` and the `Mcp-Param-{Name}` headers mirrored from tool arguments.
 * Source: 2026-07-28 basic/transports/streamable-http "Request Metadata".
 */
import type { JsonRpcMessage, JsonRpcRequest } from '../../core/jsonrpc.js';
import { META } from '../../core/revisions.js';
import { encodeHeaderValue } from './header-values.js';
import type { ToolHeaders } from './tool-headers.js';

/** The methods whose `Mcp-Name` comes from a params field, and which field. */
const NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  // Tasks extension: the task id routes task requests (SEP-2663 "Routing Headers").
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/**
 * The modern protocol version a message carries in `params._meta`, or undefined for a
 * legacy message (no such field).
 */
export function modernVersionOf(message: JsonRpcMessage): string | undefined {
  if (!('method' in message)) return undefined;
  const meta = message.params?._meta as { [key: string]: unknown } | undefined;
  const version = meta?.[META.protocolVersion];
  return typeof version === 'string' ? version : undefined;
}

/**
 * The headers of a modern request: the version (matching `_meta`), the method, the name
 * for `tools/call`, `prompts/get` and `resources/read` (Base64 sentinel when not plain
 * ASCII), and for `tools/call` the parameters annotated with `x-mcp-header` in the tool's
 * last listed `inputSchema`.
 */
export function modernHeaders(request: JsonRpcRequest, version: string, tools: ToolHeaders): Headers {
  const headers = new Headers({ 'MCP-Protocol-Version': version, 'Mcp-Method': request.method });
  const field = NAME_SOURCE[request.method];
  const name = field === undefined ? undefined : request.params?.[field];
  if (typeof name === 'string') headers.set('Mcp-Name', encodeHeaderValue(name));
  if (request.method === 'tools/call') {
    const params = request.params ?? {};
    for (const [header, value] of Object.entries(tools.headersFor(params.name, params.arguments))) {
      headers.set(header, value);
    }
  }
  return headers;
}
