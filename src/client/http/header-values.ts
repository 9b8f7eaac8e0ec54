/**
 * How values travel in the request headers of modern Streamable HTTP: the Base64 sentinel
 * for values that are not safe plain ASCII, and the token syntax of header names.
 * Source: 2026-07-28 basic/transports/streamable-http "Value Encoding", "Schema Extension".
 */

const SENTINEL = /^=\?base64\?.*\?=$/s;
// RFC 9110 §5.6.2 tchar.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** True when `value` can be sent as a plain header value (visible ASCII and inner spaces). */
function isPlainSafe(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return value === value.trim() && !SENTINEL.test(value);
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
 * The header text of a tool argument: strings encoded, integers in decimal, booleans as
 * `true`/`false`; undefined for null, absent or non-primitive values (no header is sent).
 */
export function headerValueOf(value: unknown): string | undefined {
  if (typeof value === 'string') return encodeHeaderValue(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return undefined;
}

/** True when `name` is an HTTP field-name token (`1*tchar`, RFC 9110 §5.1). */
export function isHeaderToken(name: string): boolean {
  return TOKEN.test(name);
}
