/**
 * `mcpkit/express`: serve an MCP server on an Express app (Express 4 or 5). Only converts,
 * through `mcpkit/node`'s `toNodeListener`: all MCP behaviour stays in the Streamable HTTP
 * endpoint (`mcpkit/http`).
 * Source: 2026-07-28 basic/transports/streamable-http; 2025-11-25 basic/transports.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '../../server/index.js';
import type { HttpHandlerOptions } from '../../server/http/index.js';
import { toNodeListener, type FetchHandler } from '../node/index.js';

/** The part of an Express request the adapter reads: a node request, maybe with a parsed `body`. */
export type ExpressRequest = IncomingMessage & { body?: unknown };

/**
 * An Express handler (`app.all('/mcp', handler)` or `app.use('/mcp', handler)`); it always
 * answers and never calls `next`. `await close()` shuts down the endpoint built here (each
 * open listen gets its completion result; see `McpNodeListener.close`), after which the
 * app's `httpServer.close()` finishes.
 */
export interface ExpressMcpHandler {
  (req: ExpressRequest, res: ServerResponse, next?: (error?: unknown) => void): void;
  close(): Promise<void>;
}

/**
 * Builds the Express handler of `server` (or of a web handler such as `createHttpHandler`'s),
 * as `toNodeListener(server, options)` does; `options` are the endpoint's (`maxBodyBytes`,
 * `allowedHosts`, `allowedOrigins`, ...). Best mounted before any body parser. When one ran
 * anyway (`express.json()`, `raw`, `text`), its `req.body` is used: a Buffer or string as
 * sent, a parsed value re-encoded as JSON, still bounded by `maxBodyBytes`.
 */
export function mcpExpress(
  server: McpServer | FetchHandler,
  options: HttpHandlerOptions = {},
): ExpressMcpHandler {
  const listener = toNodeListener(server, options);
  const handler = (req: ExpressRequest, res: ServerResponse): void => listener(req, res);
  return Object.assign(handler, { close: () => listener.close() });
}
