/**
 * Middleware used by the middleware tests on both sides: a logger that times requests, a
 * rate limiter that answers with a JSON-RPC error, one that adds `_meta`, and one that
 * cancels. Written against the public shapes only, as a user would.
 */
import { WireError, type Middleware, type Params } from '../../src/core/index.js';

/** One line of the logging middleware: `side direction kind method(tool) era`, plus ms for requests. */
export interface LogEntry {
  line: string;
  ms?: number;
}

/** Records every message it sees; requests are timed. */
export function logging(log: LogEntry[]): Middleware {
  return (next) => async (message, ctx) => {
    const name = typeof message.params?.name === 'string' ? `(${message.params.name})` : '';
    const line = `${ctx.side} ${ctx.direction} ${message.kind} ${message.method}${name} ${ctx.era ?? 'unsettled'}`;
    if (message.kind === 'notification') {
      log.push({ line });
      return next(message, ctx);
    }
    const entry: LogEntry = { line };
    log.push(entry);
    const started = performance.now();
    try {
      return await next(message, ctx);
    } finally {
      entry.ms = performance.now() - started;
    }
  };
}

/** The JSON-RPC error code the rate limiter answers with (implementation-defined range). */
export const RATE_LIMITED = -32029;

/** Lets `max` calls of tool `tool` through (per chain), then answers -32029 without calling `next`. */
export function rateLimit(tool: string, max: number): Middleware {
  let used = 0;
  return (next) => async (message, ctx) => {
    // Counted where calls enter: incoming on a server, outgoing on a client.
    const entering = ctx.direction === (ctx.side === 'server' ? 'incoming' : 'outgoing');
    if (!entering || message.method !== 'tools/call' || message.params?.name !== tool)
      return next(message, ctx);
    if (++used > max)
      throw new WireError(RATE_LIMITED, `Rate limit exceeded: ${max} calls of ${tool}`, { data: { max } });
    return next(message, ctx);
  };
}

/**
 * Adds `_meta[key] = value`: to the params of outgoing requests (client) and to the result
 * of incoming requests (server).
 */
export function addMeta(key: string, value: string): Middleware {
  return (next) => async (message, ctx) => {
    if (message.kind !== 'request') return next(message, ctx);
    if (ctx.direction === 'outgoing') {
      const params: Params = {
        ...message.params,
        _meta: { ...(message.params?._meta as object), [key]: value },
      };
      return next({ ...message, params }, ctx);
    }
    const result = await next(message, ctx);
    return result && { ...result, _meta: { ...(result._meta as object), [key]: value } };
  };
}

/** Server: calls of `tool` run with a signal that is already aborted (the handler sees it at once). */
export function refuseToRun(tool: string): Middleware {
  return (next) => async (message, ctx) => {
    if (message.method !== 'tools/call' || message.params?.name !== tool) return next(message, ctx);
    const controller = new AbortController();
    controller.abort(new Error('cancelled by middleware'));
    return next(message, { ...ctx, signal: AbortSignal.any([ctx.signal, controller.signal]) });
  };
}

/**
 * Client: cancels an outgoing call of `tool` as soon as the server reports progress on
 * anything (seen on the incoming chain of the same middleware).
 */
export function cancelOnProgress(tool: string): Middleware {
  const waiting = new Set<AbortController>();
  return (next) => async (message, ctx) => {
    if (ctx.direction === 'incoming' && message.method === 'notifications/progress') {
      for (const controller of waiting) controller.abort(new Error('cancelled by middleware'));
      return next(message, ctx);
    }
    if (ctx.direction !== 'outgoing' || message.method !== 'tools/call' || message.params?.name !== tool)
      return next(message, ctx);
    const controller = new AbortController();
    waiting.add(controller);
    try {
      return await next(message, { ...ctx, signal: AbortSignal.any([ctx.signal, controller.signal]) });
    } finally {
      waiting.delete(controller);
    }
  };
}
