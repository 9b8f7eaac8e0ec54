/**
 * A raw JSON-RPC channel for the checker: it sends exactly what a probe asks for (also
 * deliberately wrong requests), waits a bounded time for the answer with the same id, and
 * records every message in both directions. The server's own requests get an error back,
 * since the checker declares no client capabilities. Nothing the server sends can make it
 * throw, hang or grow without bound.
 */
import { ERROR_TABLE, type JsonRpcMessage, type RequestId, type Transport } from '../core/index.js';
import type { Answer, Json, WireRecord } from './observations.js';

/** Sends requests and notifications to one server connection. */
export interface Channel {
  /** Sends `request` and resolves with its answer; never rejects. */
  request(request: Json, options?: { headers?: Record<string, string> }): Promise<Answer>;
  /** Sends a notification; resolves with the HTTP answer when there is one. */
  notify(notification: Json): Promise<Answer | undefined>;
  /** What was sent and received so far. */
  readonly wire: WireRecord[];
  /** Frames that were not JSON-RPC messages, as short excerpts. */
  readonly junk: string[];
  close(): Promise<void>;
}

/** Bounds every channel applies. */
export interface ChannelLimits {
  /** Longest wait for one answer, in milliseconds. */
  timeoutMs: number;
  /** Longest wait for the first answer on a connection (a spawned server starts first), in milliseconds. */
  openTimeoutMs: number;
  /** Most messages kept in the wire record (later ones are not kept). */
  maxRecords: number;
}

/** The default bounds: 5 s per answer, 15 s for the first, 5 000 recorded messages. */
export const DEFAULT_LIMITS: ChannelLimits = { timeoutMs: 5000, openTimeoutMs: 15_000, maxRecords: 5000 };

const MAX_JUNK = 20;

/** Keeps the wire record bounded. */
export function record(wire: WireRecord[], limits: ChannelLimits, entry: WireRecord): void {
  if (wire.length < limits.maxRecords) wire.push(entry);
}

/** Keeps an excerpt of a frame that was not JSON-RPC. */
export function keepJunk(junk: string[], text: string): void {
  if (junk.length < MAX_JUNK) junk.push(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a JSON-RPC response (a result or an error, with an id). */
export function isResponse(message: Json): boolean {
  return (
    Object.hasOwn(message, 'id') && (Object.hasOwn(message, 'result') || Object.hasOwn(message, 'error'))
  );
}

/** The messages of one frame (a batch is several); a frame that is not JSON is kept as junk. */
function messagesOf(text: string, junk: string[]): unknown[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    keepJunk(junk, text);
    return [];
  }
}

/** Opens a channel over a started-on-demand transport (stdio, the linked pair). */
export function transportChannel(transport: Transport, limits: ChannelLimits = DEFAULT_LIMITS): Channel {
  const wire: WireRecord[] = [];
  const junk: string[] = [];
  const waiting = new Map<RequestId, (message: Json | string) => void>();
  let closedWhy: string | undefined;
  let answered = 0;
  const send = (message: Json): void => {
    record(wire, limits, { direction: 'sent', message });
    transport.send(message as unknown as JsonRpcMessage);
  };
  const onMessage = (message: unknown): void => {
    const id = isObject(message) ? message.id : undefined;
    if (!isObject(message) || (typeof id !== 'string' && typeof id !== 'number')) return;
    if (isResponse(message)) waiting.get(id)?.(message);
    else if (typeof message.method === 'string') send(refusal(id, message.method));
    waiting.delete(id);
  };
  const started = Promise.resolve(
    transport.start({
      frame: (text) => {
        for (const one of messagesOf(text, junk)) {
          record(wire, limits, { direction: 'received', message: one });
          onMessage(one);
        }
      },
      closed: (error) => {
        closedWhy = `the connection closed${error ? `: ${error.message}` : ''}`;
        for (const resolve of waiting.values()) resolve(closedWhy);
        waiting.clear();
      },
    }),
  ).catch((error: unknown) => {
    closedWhy = `could not start: ${error instanceof Error ? error.message : String(error)}`;
  });
  return {
    wire,
    junk,
    async request(request) {
      await started;
      if (closedWhy !== undefined) return { request, failure: closedWhy };
      const id = request.id as RequestId;
      const answer = new Promise<Json | string>((resolve) => waiting.set(id, resolve));
      send(request);
      const outcome = await within(answer, answered++ === 0 ? limits.openTimeoutMs : limits.timeoutMs);
      waiting.delete(id);
      if (typeof outcome === 'string') return { request, failure: outcome };
      return { request, response: outcome };
    },
    async notify(notification) {
      await started;
      if (closedWhy === undefined) send(notification);
      return undefined;
    },
    close: () => transport.close().catch(() => undefined),
  };
}

/** The checker has no client features: every server request gets MethodNotFound, ping an empty result. */
function refusal(id: RequestId, method: string): Json {
  if (method === 'ping') return { jsonrpc: '2.0', id, result: {} };
  const { code } = ERROR_TABLE.MethodNotFound;
  return { jsonrpc: '2.0', id, error: { code, message: `mcpkit check offers no ${method}` } };
}

/** Resolves with `promise`, or with a timeout message after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${ms} ms`), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
