/**
 * The raw JSON-RPC the load generator speaks, the same bytes for every server: modern
 * requests carry the per-request `_meta` envelope (and, over HTTP, the mirrored headers);
 * legacy ones follow an `initialize` handshake.
 * Source: 2026-07-28 basic/transports; 2025-11-25 basic/lifecycle.
 */

/** The modern revision every modern request names. */
const MODERN = '2026-07-28';
/** The legacy revision the handshake offers. */
export const LEGACY = '2025-11-25';

/** The two eras the benchmark drives. */
export type Era = 'modern' | 'legacy';

/** A JSON-RPC request without its id (the peer assigns ids). */
export interface Call {
  method: string;
  params: Record<string, unknown>;
}

/** Any JSON-RPC message read back from a server. */
export interface Reply {
  id?: string | number;
  method?: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  params?: Record<string, unknown>;
}

const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** `call` as a modern request: the `_meta` envelope added to its params. */
export function modern(call: Call): Call {
  return { method: call.method, params: { ...call.params, _meta: META } };
}

/** `tools/call` of `echo` with `text`. */
export function echoCall(text: string): Call {
  return { method: 'tools/call', params: { name: 'echo', arguments: { text } } };
}

/** `tools/list`. */
export const LIST_TOOLS: Call = { method: 'tools/list', params: {} };

/** The legacy `initialize` request. */
export const INITIALIZE: Call = {
  method: 'initialize',
  params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'mcpkit-bench', version: '0' } },
};

/** The notification that completes the legacy handshake. */
export const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' } as const;

/** The HTTP headers of a modern request: protocol version plus the method and name mirrors. */
export function modernHeaders(call: Call): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': call.method };
  const name = call.params.name ?? call.params.uri;
  if (typeof name === 'string') headers['mcp-name'] = name;
  return headers;
}

/** The text of the first content item of an echo result. @throws Error on an error reply. */
export function echoedText(reply: Reply): string {
  if (reply.error) throw new Error(`JSON-RPC error ${reply.error.code}: ${reply.error.message}`);
  const content = reply.result?.content as { text?: unknown }[] | undefined;
  const text = content?.[0]?.text;
  if (typeof text !== 'string') throw new Error(`not an echo result: ${JSON.stringify(reply).slice(0, 200)}`);
  return text;
}
