/**
 * The option types of a client `Connection` (client/connection.ts) and the converters from
 * a middleware message to the JSON-RPC request or notification frame it stands for.
 * Source: 2026-07-28 basic/index "Messages", basic/patterns/mrtr; SEP-2663 (Tasks).
 */
import type { JsonRpcNotification, JsonRpcRequest, Params } from '../core/jsonrpc.js';
import type { McpMessage } from '../core/middleware.js';
import type { RequestOptions } from '../core/peer.js';
import type { ClientCapabilities, Implementation } from '../core/types/index.js';
import type { DeclaredCapabilities } from './capabilities.js';
import type { ClientOptions } from './options.js';

/** What a connection needs from its client. */
export interface ConnectionSetup {
  options: ClientOptions;
  capabilities: DeclaredCapabilities;
  clientInfo: Implementation;
  onNotification(notification: JsonRpcNotification): void;
}

/** Per-call options of `Connection.roundTrip`: the Peer's, plus Tasks negotiation. */
export interface CallOptions extends RequestOptions {
  /** Extensions declared in this request's client capabilities only (modern), e.g. Tasks. */
  extensions?: Record<string, Params>;
  /** Return a `resultType: "task"` result as it is (the caller negotiated the Tasks extension). */
  acceptTask?: boolean;
}

/** Options for relaying a request on behalf of another client (a proxy or gateway). */
export interface RelayOptions {
  /** Return an `input_required` result as it is instead of answering it (MRTR relayed to the caller's client). */
  relayInputRequired?: boolean;
  /** Modern: the capabilities to declare in this request's `_meta` instead of this client's own. */
  clientCapabilities?: ClientCapabilities;
}

/** The JSON-RPC request frame of a middleware request message. */
export function requestOf(message: McpMessage): JsonRpcRequest {
  const id = message.id ?? 0;
  return message.params === undefined
    ? { jsonrpc: '2.0', id, method: message.method }
    : { jsonrpc: '2.0', id, method: message.method, params: message.params };
}

/** The JSON-RPC notification frame of a middleware notification message. */
export function notificationOf(message: McpMessage): JsonRpcNotification {
  return message.params === undefined
    ? { jsonrpc: '2.0', method: message.method }
    : { jsonrpc: '2.0', method: message.method, params: message.params };
}

/** The Peer's own options out of a call's: Tasks and relay fields dropped. */
export function peerOptions(call: (CallOptions & RelayOptions) | undefined): RequestOptions {
  const {
    extensions: _e,
    acceptTask: _t,
    relayInputRequired: _r,
    clientCapabilities: _c,
    ...options
  }: CallOptions & RelayOptions = { ...call };
  return options;
}
