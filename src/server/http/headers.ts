/**
 * Request metadata headers of the modern wire: `MCP-Protocol-Version`, `Mcp-Method` and
 * `Mcp-Name` must be present and match the body; `Mcp-Name` may use the Base64 sentinel,
 * and the character rule applies to the raw header, not to the decoded value.
 * Source: 2026-07-28 basic/transports/streamable-http "Request Metadata",
 * "Value Encoding", "Server Validation".
 */
import { WireError, type JsonRpcRequest, META } from '../../core/index.js';
import { decodeHeaderValue, mcpNameOf, metaOf } from '../../core/runtime.js';
import type { HeaderReader } from './exchange.js';

function mismatch(message: string): WireError {
  return WireError.of('HeaderMismatch', `Header mismatch: ${message}`);
}

const PLAIN = /^[\x20-\x7E\t]*$/;

function checkHeader(headers: HeaderReader, name: string, expected: unknown): WireError | undefined {
  const raw = headers.get(name);
  if (raw === null) return mismatch(`required header ${name} is missing`);
  // Only Mcp-Name carries an author's value, so only it may be encoded.
  const value = name === 'mcp-name' ? decodeHeaderValue(raw) : PLAIN.test(raw) ? raw.trim() : undefined;
  if (value === undefined) return mismatch(`${name} has invalid characters`);
  if (value !== expected)
    return mismatch(
      `${name} header value ${JSON.stringify(value)} does not match body value ${JSON.stringify(expected)}`,
    );
  return undefined;
}

/**
 * Checks the standard headers of a modern request against its body.
 * `MCP-Protocol-Version` is compared with `_meta` only when `_meta` names a version (a
 * request without one is refused later with -32602); it must be present either way.
 * @returns WireError -32020 (HTTP 400) for the first missing, malformed or mismatching header.
 */
export function checkStandardHeaders(headers: HeaderReader, request: JsonRpcRequest): WireError | undefined {
  const version = metaOf(request.params)?.[META.protocolVersion];
  const versionError =
    version === undefined
      ? headers.get('mcp-protocol-version') !== null
        ? undefined
        : mismatch('required header MCP-Protocol-Version is missing')
      : checkHeader(headers, 'mcp-protocol-version', version);
  if (versionError) return versionError;
  const methodError = checkHeader(headers, 'mcp-method', request.method);
  if (methodError) return methodError;
  const expected = mcpNameOf(request.method, request.params);
  if (expected === undefined && headers.get('mcp-name') === null) return undefined;
  return checkHeader(headers, 'mcp-name', expected);
}
