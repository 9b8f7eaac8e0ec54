/**
 * The spec's wire rules that both sides apply, in one place: which body field each
 * method's `Mcp-Name` header mirrors, the `=?base64?…?=` header-value codec, reading
 * the protocol fields of `_meta`, the `x-mcp-header` rules, and which revision allows
 * JSON-RPC batches. The server checks what the client built with these same functions.
 * Source: 2026-07-28 basic/transports/streamable-http "Request Metadata", "Value
 * Encoding", "Custom Headers from Tool Parameters", "Server Validation"; server/tools
 * "x-mcp-header"; basic/index "_meta"; 2025-03-26 basic (batching).
 */
import { isObject, type Params } from './jsonrpc.js';
import { targetOf } from './methods.js';

/**
 * The value `Mcp-Name` must carry for a request, or undefined when the method has none: the
 * params field the method table names as its target (streamable-http "Request Metadata";
 * the Tasks extension's `taskId`, SEP-2663 "Streamable HTTP: Routing Headers").
 */
export function mcpNameOf(method: string, params: Params | undefined): unknown {
  return targetOf(method, params);
}

// RFC 9110 §5.5: visible ASCII, space and horizontal tab.
const FIELD_VALUE = /^[\x20-\x7E\t]*$/;
const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;
const LOOKS_ENCODED = /^=\?base64\?.*\?=$/s;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** True when `value` can go in a header as is: visible ASCII, inner spaces, not sentinel-shaped. */
function isPlainSafe(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return value === value.trim() && !LOOKS_ENCODED.test(value);
}

function base64Utf8(value: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Encodes a string for an `Mcp-Name` or `Mcp-Param-{Name}` header: as is when it is
 * visible ASCII with no leading or trailing whitespace, else `=?base64?{UTF-8 Base64}?=`
 * (also for plain values that look like the sentinel, so they are never misread).
 */
export function encodeHeaderValue(value: string): string {
  return isPlainSafe(value) ? value : `=?base64?${base64Utf8(value)}?=`;
}

/**
 * Decodes an `Mcp-Name` or `Mcp-Param-{Name}` header value. The character rule (RFC 9110
 * field value) applies to the raw header; a sentinel value decodes to any UTF-8 text,
 * non-ASCII and leading or trailing spaces included.
 * @returns the value to compare with the body, or undefined when the raw header has
 *   characters a field value cannot have, or is sentinel-shaped but not strict Base64 of
 *   UTF-8 (RFC 4648 §4: whole quanta, canonical padding).
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = raw.trim();
  if (!FIELD_VALUE.test(value)) return undefined;
  const match = SENTINEL.exec(value);
  if (!match) return LOOKS_ENCODED.test(value) ? undefined : value;
  const encoded = match[1] ?? '';
  if (encoded.length % 4 !== 0) return undefined;
  try {
    return utf8.decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/**
 * The header text of a tool argument: strings encoded, integers in decimal, booleans as
 * `true`/`false`; undefined for null, absent or non-primitive values (no header is sent).
 */
export function headerValueOf(value: unknown): string | undefined {
  if (typeof value === 'string') return encodeHeaderValue(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return undefined;
}

/** True when a decoded `Mcp-Param-*` value stands for the body value `value`. */
export function headerMatches(decoded: string, value: unknown): boolean {
  if (typeof value === 'number') return decoded.trim() !== '' && Number(decoded) === value;
  if (typeof value === 'boolean') return decoded === String(value);
  return decoded === value;
}

/** The `_meta` object of `params`, or undefined when there is none (or it is not an object). */
export function metaOf(params: Params | undefined): Record<string, unknown> | undefined {
  const meta = params?._meta;
  return isObject(meta) ? meta : undefined;
}

/** Batches (JSON arrays of messages) were allowed only in 2025-03-26 (removed in 2025-06-18). */
export function allowsBatch(version: string | undefined): boolean {
  return version === '2025-03-26';
}

export {
  checkToolHeaders,
  isHeaderToken,
  valueAtPath,
  type HeaderAnnotation,
  type ToolHeaderCheck,
} from './x-mcp-header.js';
