/**
 * `mcpkit/hono`: serve an MCP server on a Hono app. Hono already speaks web `Request` and
 * `Response`, so this only hands the raw request to the web-standard handler
 * (`mcpkit/http`); all MCP behaviour stays there. Runs wherever Hono runs.
 * Source: 2026-07-28 basic/transports/streamable-http; 2025-11-25 basic/transports.
 */
import type { McpServer } from '../../server/index.js';
import { createHttpHandler, type HttpHandlerOptions } from '../../server/http/index.js';

/** The part of a Hono `Context` the adapter reads. */
export interface HonoContextLike {
  req: {
    /** The web request as it arrived. */
    raw: Request;
    /** The body, from Hono's cache when a middleware already read it. */
    arrayBuffer(): Promise<ArrayBuffer>;
  };
  /** On @hono/node-server: the node request, whose socket has the peer's address. */
  env?: unknown;
}

/** The peer's address from @hono/node-server's bindings (`env.incoming.socket`), if there. */
function remoteAddressOf(env: unknown): string | undefined {
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: unknown } } } | undefined)?.incoming;
  const address = incoming?.socket?.remoteAddress;
  return typeof address === 'string' ? address : undefined;
}

/**
 * A Hono handler (`app.all('/mcp', handler)`); `await close()` shuts down the handler built
 * here (each open listen gets its completion result; see `HttpHandler.close`).
 */
export interface HonoMcpHandler {
  (c: HonoContextLike): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Builds the Hono handler of `server` with `createHttpHandler(server, options)`; `options`
 * are the handler's (`maxBodyBytes`, `allowedHosts`, `allowedOrigins`, ...).
 * Hono parses no body by itself; when a middleware already read it (a validator, say),
 * the body comes from Hono's cache instead of the spent stream.
 */
export function mcpHono(server: McpServer, options: HttpHandlerOptions = {}): HonoMcpHandler {
  const handler = createHttpHandler(server, options);
  const honoHandler = async (c: HonoContextLike): Promise<Response> => {
    const raw = c.req.raw;
    const info = { remoteAddress: remoteAddressOf(c.env) };
    if (!raw.bodyUsed) return handler(raw, info);
    const body = await c.req.arrayBuffer();
    return handler(new Request(raw, { body }), info);
  };
  return Object.assign(honoHandler, { close: () => handler.close() });
}
