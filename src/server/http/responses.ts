/**
 * Building HTTP responses: JSON bodies, JSON-RPC errors with the table's status, empty
 * answers, and the headers of SSE streams.
 * Source: 2026-07-28 basic/transports/streamable-http; core/errors.ts (status per code).
 */
import {
  ERROR_TABLE,
  httpStatusOf,
  type ErrorName,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type RequestId,
} from '../../core/index.js';
import { errorResponse } from '../../core/runtime.js';
import type { HeaderMap, HttpResponse } from './exchange.js';

export type { HeaderMap } from './exchange.js';

/** Headers every SSE response carries; `X-Accel-Buffering: no` keeps proxies from buffering. */
const SSE_HEADERS: HeaderMap = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

const NO_HEADERS: HeaderMap = Object.freeze({});

/** A `application/json` response holding `body`. */
export function jsonResponse(
  body: JsonRpcMessage | JsonRpcMessage[],
  status: number,
  headers: HeaderMap = NO_HEADERS,
): HttpResponse {
  const all =
    headers === NO_HEADERS
      ? { 'content-type': 'application/json' }
      : { 'content-type': 'application/json', ...headers };
  return { status, headers: all, body: JSON.stringify(body) };
}

/**
 * A JSON-RPC error response with the code and HTTP status `name` has in `ERROR_TABLE`.
 * `id` is omitted when the request's id is unknown.
 */
export function rpcError(
  name: ErrorName,
  message: string,
  options: { id?: RequestId | undefined; headers?: HeaderMap } = {},
): HttpResponse {
  const entry = ERROR_TABLE[name];
  const body = errorResponse(options.id, { code: entry.code, message });
  return jsonResponse(body, entry.httpStatus, options.headers);
}

/** 200 OK: a result, a stream, a DELETE done (RFC 9110 §15.3.1). */
export const HTTP_OK = 200;
/** 202 Accepted: a POST of notifications or responses only (RFC 9110 §15.3.3). */
export const HTTP_ACCEPTED = 202;

/**
 * A JSON-RPC error response (one, or a batch's invalid elements) at the status the table
 * gives its code; a batch takes `InvalidRequest`'s.
 */
export function errorReply(body: JsonRpcErrorResponse | JsonRpcErrorResponse[]): HttpResponse {
  const status = Array.isArray(body) ? ERROR_TABLE.InvalidRequest.httpStatus : httpStatusOf(body.error.code);
  return jsonResponse(body, status);
}

/** A response with no body (202 Accepted, 200 after DELETE). */
export function emptyResponse(status: number, headers: HeaderMap = {}): HttpResponse {
  return { status, headers, body: null };
}

/** 405 with the `Allow` header listing the methods the endpoint takes. */
export function methodNotAllowed(allow: string): HttpResponse {
  return rpcError('MethodNotAllowed', `Method not allowed; use ${allow}`, { headers: { allow } });
}

/** A 200 `text/event-stream` response over `body`. */
export function sseResponse(body: ReadableStream<Uint8Array>, headers: HeaderMap = {}): HttpResponse {
  return { status: HTTP_OK, headers: { ...SSE_HEADERS, ...headers }, body };
}
