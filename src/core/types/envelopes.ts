/**
 * Typed JSON-RPC envelopes and the error shapes MCP names. The untyped envelope lives in
 * `../jsonrpc.ts`; these add a method, params or result type on top.
 * Source: MCP 2026-07-28 basic/index "Messages" and "Error codes".
 */
import type { ErrorObject } from '../errors.js';
import type { RequestId } from '../jsonrpc.js';
import type { ClientCapabilities } from './base.js';

export type { ErrorObject } from '../errors.js';

/** A JSON-RPC request with method M and params P (basic/index "Requests"). */
export interface JSONRPCRequestOf<M extends string, P> {
  jsonrpc: '2.0';
  id: RequestId;
  method: M;
  params: P;
}

/** A JSON-RPC request whose params may be left out (basic/index "Requests"). */
export interface JSONRPCBareRequestOf<M extends string, P> {
  jsonrpc: '2.0';
  id: RequestId;
  method: M;
  params?: P;
}

/** A JSON-RPC notification with method M and params P (basic/index "Notifications"). */
export interface JSONRPCNotificationOf<M extends string, P> {
  jsonrpc: '2.0';
  method: M;
  params: P;
}

/** A notification whose params may be left out (basic/index "Notifications"). */
export interface JSONRPCBareNotificationOf<M extends string, P> {
  jsonrpc: '2.0';
  method: M;
  params?: P;
}

/** A JSON-RPC result response carrying R (basic/index "Responses", JSONRPCResultResponse). */
export interface JSONRPCResultResponseOf<R> {
  jsonrpc: '2.0';
  id: RequestId;
  result: R;
}

/** A JSON-RPC error response carrying the error object E (basic/index "Error responses"). */
export interface JSONRPCErrorResponseOf<E extends ErrorObject> {
  jsonrpc: '2.0';
  id?: RequestId;
  error: E;
}

/** Invalid JSON was received (basic/index "Error codes", ParseError, -32700). */
export interface ParseError extends ErrorObject {
  code: -32700;
}

/** The message is not a valid request (basic/index "Error codes", InvalidRequestError, -32600). */
export interface InvalidRequestError extends ErrorObject {
  code: -32600;
}

/** The method does not exist or is not offered (basic/index "Error codes", MethodNotFoundError, -32601). */
export interface MethodNotFoundError extends ErrorObject {
  code: -32601;
}

/** The params are invalid (basic/index "Error codes", InvalidParamsError, -32602). */
export interface InvalidParamsError extends ErrorObject {
  code: -32602;
}

/** The server failed internally (basic/index "Error codes", InternalError, -32603). */
export interface InternalError extends ErrorObject {
  code: -32603;
}

/**
 * An HTTP header disagrees with the body it mirrors (basic/transports/streamable-http,
 * HeaderMismatchError, -32020).
 */
export type HeaderMismatchError = JSONRPCErrorResponseOf<ErrorObject & { code: -32020 }>;

/**
 * The request needs client capabilities the request did not declare
 * (basic/index "Error codes", MissingRequiredClientCapabilityError, -32021).
 */
export type MissingRequiredClientCapabilityError = JSONRPCErrorResponseOf<
  ErrorObject & { code: -32021; data: { requiredCapabilities: ClientCapabilities } }
>;

/**
 * The server does not speak the requested protocol version; `supported` lists what it does
 * (basic/versioning, UnsupportedProtocolVersionError, -32022).
 */
export type UnsupportedProtocolVersionError = JSONRPCErrorResponseOf<
  ErrorObject & { code: -32022; data: { requested: string; supported: string[] } }
>;
