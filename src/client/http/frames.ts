/**
 * Turning HTTP outcomes into JSON-RPC frames for the client: the response bodies servers
 * send, and error responses synthesized when a request gets no JSON-RPC answer (an HTTP
 * error without a JSON-RPC body, a network failure, a stream that ends too early).
 * Synthesized codes are never modern ones, so a legacy server that refuses the modern
 * probe with a bare 400/404/405 is detected as legacy.
 * Source: 2026-07-28 basic/transports/streamable-http "Backward Compatibility".
 */
import { ERROR_TABLE, type RequestId } from '../../core/index.js';
import { errorResponse, isObject } from '../../core/runtime.js';

/** The JSON-RPC error code standing for an HTTP error status without a JSON-RPC body. */
function codeForStatus(status: number): number {
  if (status === 404 || status === 405) return ERROR_TABLE.MethodNotFound.code;
  if (status >= 500) return ERROR_TABLE.InternalError.code;
  return ERROR_TABLE.InvalidRequest.code;
}

/** An error response frame for request `id`. */
function errorFrame(id: RequestId, code: number, message: string): string {
  return JSON.stringify(errorResponse(id, { code, message }));
}

/** An error frame for a request that failed below JSON-RPC (network, stream, empty body). */
export function failureFrame(id: RequestId, message: string): string {
  return errorFrame(id, ERROR_TABLE.InternalError.code, message);
}

/**
 * An error frame for a request whose connection broke before its response: the HTTP
 * request failed or its stream ended early. `data.disconnected` tells the client it was
 * the transport, not the server's answer (a subscription may reconnect on it).
 */
export function disconnectedFrame(id: RequestId, message: string): string {
  const error = { code: ERROR_TABLE.InternalError.code, message, data: { disconnected: true } };
  return JSON.stringify(errorResponse(id, error));
}

/**
 * An error frame for an HTTP error status whose body is not a JSON-RPC response. `data`
 * carries `httpStatus` (and `statusText`) so a caller can tell an HTTP failure from a
 * JSON-RPC one; the body is quoted only when it is short plain text, never HTML.
 */
export function statusFrame(id: RequestId, response: Response, body: string): string {
  const detail = plainDetail(response, body);
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  const data = { httpStatus: response.status, statusText: response.statusText };
  const message = detail ? `${status}: ${detail}` : status;
  return JSON.stringify(errorResponse(id, { code: codeForStatus(response.status), message, data }));
}

/** The body's first 200 characters when it is readable text; '' for HTML or markup. */
function plainDetail(response: Response, body: string): string {
  const text = body.trim();
  if (mediaTypeOf(response).includes('html') || text.startsWith('<')) return '';
  return text.slice(0, 200);
}

/** Parses a frame into a JSON object, or undefined when it is not one. */
export function parseObject(text: string): { [key: string]: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** True for a JSON-RPC response object (a result or an error). */
export function isResponseObject(value: { [key: string]: unknown } | undefined): boolean {
  return value !== undefined && value.jsonrpc === '2.0' && ('result' in value || 'error' in value);
}

/** The `result` object of a response, or undefined when it has none. */
export function resultOf(response: { [key: string]: unknown }): { [key: string]: unknown } | undefined {
  const result = response.result;
  return isObject(result) ? result : undefined;
}

/** The media type of a response, lower case, without parameters. */
export function mediaTypeOf(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}
