/**
 * Request metadata headers of the modern wire: `MCP-Protocol-Version`, `Mcp-Method` and
 * `Mcp-Name` must be present and match the body; `Mcp-Name` may use the Base64 sentinel.
 * Source: 2026-07-28 basic/transports/streamable-http "Request Metadata",
 * "Value Encoding", "Server Validation".
 */
import { McpError } from '../../core/errors.js';
import type { JsonRpcRequest } from '../../core/jsonrpc.js';
import { META } from '../../core/revisions.js';
import type { HeaderReader } from './exchange.js';

/** Which body field `Mcp-Name` mirrors, by method. */
export const NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  // Tasks extension (SEP-2663 "Streamable HTTP: Routing Headers").
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const SAFE_VALUE = /^[\x20-\x7E\t]*$/;
const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a header value that may use the `=?base64?...?=` sentinel (UTF-8 inside).
 * Returns undefined for invalid characters or a sentinel that does not decode.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = raw.trim();
  if (!SAFE_VALUE.test(value)) return undefined;
  const match = SENTINEL.exec(value);
  if (!match) return value.startsWith('=?base64?') && value.endsWith('?=') ? undefined : value;
  const encoded = match[1] ?? '';
  // Strict Base64 (RFC 4648 §4): whole quanta with canonical padding; atob alone is lenient.
  if (encoded.length % 4 !== 0) return undefined;
  try {
    const binary = atob(encoded);
    return utf8.decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

function mismatch(message: string): McpError {
  return McpError.of('HeaderMismatch', `Header mismatch: ${message}`);
}

function checkHeader(
  headers: HeaderReader,
  name: string,
  expected: unknown,
  decode: boolean,
): McpError | undefined {
  const raw = headers.get(name);
  if (raw === null) return mismatch(`required header ${name} is missing`);
  const value = decode ? decodeHeaderValue(raw) : raw.trim();
  // A decoded sentinel value may hold any Unicode (that is what the encoding is for).
  if (value === undefined || (!decode && !SAFE_VALUE.test(value)))
    return mismatch(`${name} has invalid characters`);
  if (value !== expected)
    return mismatch(`${name} header value '${value}' does not match body value '${String(expected)}'`);
  return undefined;
}

/**
 * Checks the standard headers of a modern request against its body.
 * `MCP-Protocol-Version` is compared with `_meta` only when `_meta` names a version (a
 * request without one is refused later with -32602); it must be present either way.
 * @returns McpError -32020 (HTTP 400) for the first missing, malformed or mismatching header.
 */
export function checkStandardHeaders(headers: HeaderReader, request: JsonRpcRequest): McpError | undefined {
  const meta = request.params?._meta;
  const version =
    typeof meta === 'object' && meta !== null
      ? (meta as Record<string, unknown>)[META.protocolVersion]
      : undefined;
  const versionError =
    version === undefined
      ? headers.get('mcp-protocol-version') !== null
        ? undefined
        : mismatch('required header MCP-Protocol-Version is missing')
      : checkHeader(headers, 'mcp-protocol-version', version, false);
  if (versionError) return versionError;
  const methodError = checkHeader(headers, 'mcp-method', request.method, false);
  if (methodError) return methodError;
  const source = NAME_SOURCE[request.method];
  if (source === undefined) return undefined;
  const expected = request.params?.[source];
  if (expected === undefined && headers.get('mcp-name') === null) return undefined;
  return checkHeader(headers, 'mcp-name', expected, true);
}
