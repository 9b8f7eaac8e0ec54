/**
 * The JSON-RPC 2.0 envelope as MCP uses it: parse, check and build messages.
 * Source: JSON-RPC 2.0 spec §4–5; MCP 2026-07-28 basic/index "Messages" (ids are strings
 * or integers, never null; notifications get no response).
 */
import { DEFAULT_MAX_JSON_DEPTH, nestedDeeperThan } from './json-limits.js';
import { ERROR_TABLE, type ErrorObject } from './errors.js';

/** A request id: a string or an integer (never null). */
export type RequestId = string | number;

/** Params of a request or notification: a JSON object. */
export type Params = { [key: string]: unknown };

/** A JSON-RPC request. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Params;
}

/** A JSON-RPC notification (no id, never answered). */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Params;
}

/** A successful JSON-RPC response. */
export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: Params;
}

/** A JSON-RPC error response; `id` is absent only when the request's id could not be read. */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id?: RequestId;
  error: ErrorObject;
}

/** A response of either kind. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
/** Any single JSON-RPC message. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** The outcome of checking one decoded value against the envelope rules. */
export type Checked =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | {
      kind: 'invalid';
      error: JsonRpcErrorResponse;
      notification?: true;
      /** Set when the message was a malformed response to this request id (the error echoes no id). */
      responseTo?: RequestId;
    };

/** The outcome of decoding one frame of text. */
export type Decoded =
  | { kind: 'single'; value: unknown }
  | { kind: 'batch'; values: unknown[] }
  | {
      kind: 'malformed';
      error: JsonRpcErrorResponse;
      /** Set when the frame was a response, too deep to accept, to this request id. */
      responseTo?: RequestId;
    };

/** True for a JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True for a valid id: a string or a safe integer. */
export function isRequestId(v: unknown): v is RequestId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v));
}

/** Builds an error response; `id` is omitted when unknown. */
export function errorResponse(id: RequestId | undefined, error: ErrorObject): JsonRpcErrorResponse {
  return id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
}

/** Builds a result response. */
export function resultResponse(id: RequestId, result: Params): JsonRpcResultResponse {
  return { jsonrpc: '2.0', id, result };
}

/**
 * Decodes one frame (a stdio line or an HTTP body). Bad JSON → a -32700 error response;
 * JSON nested deeper than `maxDepth` (default {@link DEFAULT_MAX_JSON_DEPTH}) → a -32600
 * error response echoing the message's id, with `responseTo` set when it was a response.
 */
export function decodeFrame(text: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): Decoded {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    return { kind: 'malformed', error: errorResponse(undefined, parseErrorObject(detail)) };
  }
  if (nestedDeeperThan(text, maxDepth)) return tooDeep(value, maxDepth);
  return Array.isArray(value) ? { kind: 'batch', values: value } : { kind: 'single', value };
}

function tooDeep(value: unknown, maxDepth: number): Decoded {
  const id = isObject(value) && isRequestId(value.id) ? value.id : undefined;
  const message = `Invalid request: JSON nested deeper than ${maxDepth} levels (maxJsonDepth)`;
  const error = errorResponse(id, { code: ERROR_TABLE.InvalidRequest.code, message });
  const isResponse = isObject(value) && !('method' in value);
  return isResponse && id !== undefined
    ? { kind: 'malformed', error, responseTo: id }
    : { kind: 'malformed', error };
}

function parseErrorObject(detail: string): ErrorObject {
  return { code: ERROR_TABLE.ParseError.code, message: `Parse error: ${detail}` };
}

function invalid(id: unknown, message: string): Checked {
  const echo = isRequestId(id) ? id : undefined;
  return {
    kind: 'invalid',
    error: errorResponse(echo, {
      code: ERROR_TABLE.InvalidRequest.code,
      message: `Invalid request: ${message}`,
    }),
  };
}

/** Checks a decoded value against the JSON-RPC 2.0 envelope as MCP restricts it. */
export function checkEnvelope(value: unknown): Checked {
  if (!isObject(value)) return invalid(undefined, 'a message must be a JSON object');
  if (value.jsonrpc !== '2.0') {
    const isResponse = !('method' in value) && ('result' in value || 'error' in value);
    return (isResponse ? badResponse : invalid)(value.id, 'jsonrpc must be "2.0"');
  }
  if ('method' in value) return checkCall(value);
  if ('result' in value || 'error' in value) return checkResponse(value);
  return invalid(value.id, 'not a request, notification or response');
}

function checkCall(value: Record<string, unknown>): Checked {
  if (typeof value.method !== 'string') return invalid(value.id, 'method must be a string');
  if (value.params !== undefined && !isObject(value.params)) {
    // A notification is never answered, not even when it is malformed (basic/index "Notifications").
    return 'id' in value
      ? invalid(value.id, 'params must be an object')
      : ({ ...invalid(undefined, 'params must be an object'), notification: true } as Checked);
  }
  if (!('id' in value)) return { kind: 'notification', message: value as unknown as JsonRpcNotification };
  if (!isRequestId(value.id)) return invalid(undefined, 'id must be a string or an integer');
  return { kind: 'request', message: value as unknown as JsonRpcRequest };
}

function checkResponse(value: Record<string, unknown>): Checked {
  if ('result' in value && 'error' in value) return badResponse(value.id, 'both result and error');
  if ('result' in value) {
    if (!isRequestId(value.id) || !isObject(value.result)) return badResponse(value.id, 'malformed result');
  } else {
    const e = value.error;
    if (!isObject(e) || !Number.isInteger(e.code) || typeof e.message !== 'string') {
      return badResponse(value.id, 'malformed error object');
    }
    if (value.id !== undefined && value.id !== null && !isRequestId(value.id)) {
      return invalid(undefined, 'malformed error id');
    }
  }
  return { kind: 'response', message: value as unknown as JsonRpcResponse };
}

/**
 * A malformed response: its error never echoes the id, which names a request of the side that
 * receives the error (the peer would take it as the answer to its own request of that id).
 */
function badResponse(id: unknown, message: string): Checked {
  const checked = invalid(undefined, message);
  return isRequestId(id) && checked.kind === 'invalid' ? { ...checked, responseTo: id } : checked;
}

/** True when a response carries an error. */
export function isErrorResponse(m: JsonRpcResponse): m is JsonRpcErrorResponse {
  return 'error' in m;
}
