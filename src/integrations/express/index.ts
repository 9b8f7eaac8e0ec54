/**
 * `mcpkit/express`: serve an MCP server on an Express app (Express 4 or 5). Only converts
 * Express's node request/response to the endpoint's shapes; all MCP behaviour stays in
 * the Streamable HTTP endpoint (`mcpkit/http`).
 * Source: 2026-07-28 basic/transports/streamable-http; 2025-11-25 basic/transports.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '../../server/index.js';
import {
  createHttpEndpoint,
  type BodyResult,
  type HttpEndpoint,
  type HttpHandlerOptions,
  type HttpRequest,
} from '../../server/http/index.js';
import { NodeHeaders } from '../node/headers.js';
import { toEndpointListener, writeResponse } from '../node/index.js';

/** The part of an Express request the adapter reads: a node request, maybe with a parsed `body`. */
export type ExpressRequest = IncomingMessage & { body?: unknown };

/**
 * An Express handler (`app.all('/mcp', handler)` or `app.use('/mcp', handler)`); it always
 * answers and never calls `next`. `close()` ends the legacy sessions of the endpoint built here.
 */
export interface ExpressMcpHandler {
  (req: ExpressRequest, res: ServerResponse, next?: (error?: unknown) => void): void;
  close(): void;
}

/**
 * Builds the Express handler of `server` (or of an endpoint from `createHttpEndpoint`).
 * `options` are the endpoint's (`maxBodyBytes`, `allowedHosts`, `allowedOrigins`, ...).
 * Best mounted before any body parser. When one ran anyway (`express.json()`, `raw`,
 * `text`), its `req.body` is used: a Buffer or string as sent, a parsed value re-encoded
 * as JSON, still bounded by `maxBodyBytes`.
 */
export function mcpExpress(
  server: McpServer | HttpEndpoint,
  options: HttpHandlerOptions = {},
): ExpressMcpHandler {
  const endpoint = server instanceof McpServer ? createHttpEndpoint(server, options) : server;
  const listener = toEndpointListener(endpoint);
  const handler = (req: ExpressRequest, res: ServerResponse): void => {
    if (req.body === undefined || !req.readableEnded) listener(req, res);
    else void answerParsed(endpoint, req, res);
  };
  return Object.assign(handler, { close: () => endpoint.close() });
}

const utf8 = new TextDecoder('utf-8');

function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return utf8.decode(body);
  return JSON.stringify(body) ?? '';
}

/** Serves a request whose body a parser already consumed. */
async function answerParsed(endpoint: HttpEndpoint, req: ExpressRequest, res: ServerResponse): Promise<void> {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  const text = bodyText(req.body);
  const request: HttpRequest = {
    method: req.method ?? 'GET',
    url: `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`,
    headers: new NodeHeaders(req.headers),
    signal: controller.signal,
    remoteAddress: req.socket.remoteAddress,
    body: async (maxBytes): Promise<BodyResult> =>
      Buffer.byteLength(text) > maxBytes ? { kind: 'too-large' } : { kind: 'text', text },
  };
  try {
    await writeResponse(await endpoint.handle(request), res, controller.signal);
  } catch {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
}
