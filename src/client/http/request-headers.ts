/**
 * The request metadata headers of a modern POST: `MCP-Protocol-Version`, `Mcp-Method` and
 * `Mcp-Name` (the `Mcp-Param-{Name}` headers come from the client's `x-mcp-header` step
 * with the message). Source: 2026-07-28 basic/transports/streamable-http "Request Metadata".
 */
import type { JsonRpcRequest } from '../../core/index.js';
import { encodeHeaderValue, mcpNameOf } from '../../core/runtime.js';

/**
 * The headers of a modern request: the version (matching `_meta`), the method, and the
 * name for `tools/call`, `prompts/get` and `resources/read` (Base64 sentinel when not
 * plain ASCII). Added to `headers`, whose own entries they replace.
 */
export function modernHeaders(request: JsonRpcRequest, version: string, headers: Headers): Headers {
  headers.set('MCP-Protocol-Version', version);
  headers.set('Mcp-Method', request.method);
  const name = mcpNameOf(request.method, request.params);
  if (typeof name === 'string') headers.set('Mcp-Name', encodeHeaderValue(name));
  return headers;
}
