/**
 * `serve()`: listen on node:http and answer the MCP endpoint with a fetch-style handler
 * (or a server definition, for which the handler is built here).
 */
import { createServer as createNodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVER_CARD_WELL_KNOWN_PATH } from '../../core/server-card.js';
import type { McpServer } from '../../server/index.js';
import type { HttpHandlerOptions, ServerCardOptions } from '../../server/http/index.js';
import { connectionShares } from '../../server/http/runtime.js';
import { toNodeListener, type FetchHandler } from './listener.js';

/** Options of {@link serve}. */
export interface ServeOptions {
  /** TCP port; 0 picks a free one (see `url`). */
  port: number;
  /** Interface to bind (default `127.0.0.1`, loopback only). */
  host?: string;
  /**
   * Path of the MCP endpoint (default `/mcp`); other paths get 404, except `http.auth`'s
   * metadata paths and, with `http.serverCard`, `<path>/server-card` and
   * `/.well-known/mcp/server-card.json`.
   */
  path?: string;
  /**
   * Handler options when `serve` is given a server definition (of a handler's, only
   * `maxBodyBytes`). Their `bindAddress` defaults to `host`, so the `Host`/`Origin` policy is
   * the one `createHttpHandler` applies with the same options (see `bindAddress`).
   */
  http?: HttpHandlerOptions;
  /**
   * Milliseconds a client has to send the complete request headers (default 10 000);
   * node:http's `headersTimeout`, the guard against slowloris.
   */
  headersTimeoutMs?: number;
  /** Milliseconds a client has to send a complete request, body included (default 30 000). */
  requestTimeoutMs?: number;
  /**
   * Most TCP connections open at once (default 1 024); more are closed on arrival. The
   * endpoint's per-principal defaults of what holds a connection are a tenth of it.
   */
  maxConnections?: number;
}

/** A listening endpoint. */
export interface Served {
  /** The endpoint URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /**
   * Stops listening and shuts down: for a server definition, its endpoint closes first
   * (each open listen gets its completion result, other requests may finish within
   * `http.closeTimeoutMs`; see `HttpHandler.close`), then the connections close. For a web
   * handler, open connections are cut (close the handler first for a graceful end).
   */
  close(): Promise<void>;
}

/**
 * Serves `target` (a handler, or a server definition) at `http://host:port/path`.
 * Resolves once listening. @throws the listen error (e.g. EADDRINUSE).
 */
export async function serve(target: FetchHandler | McpServer, options: ServeOptions): Promise<Served> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const maxConnections = options.maxConnections ?? 1024;
  const own = typeof target === 'function' ? undefined : options.http;
  const listener = toNodeListener(target, {
    ...options.http,
    ...(own?.serverCard ? { serverCard: { endpointPath: path, ...cardOptions(own.serverCard) } } : {}),
    bindAddress: options.http?.bindAddress ?? host,
    principals: connectionShares(options.http?.principals, {
      connections: maxConnections,
      maxSessions: options.http?.maxSessions,
    }),
  });
  const card = own?.serverCard
    ? [`${path === '/' ? '' : path}/server-card`, SERVER_CARD_WELL_KNOWN_PATH]
    : [];
  const paths = new Set([path, ...card, ...(own?.auth?.paths ?? [])]);
  // node:http checks the two timeouts every `connectionsCheckingInterval`; keep it short.
  const server = createNodeServer({ connectionsCheckingInterval: 1000 }, (req, res) => {
    const url = req.url ?? '/';
    if (paths.has(url) || paths.has(url.split('?', 1)[0]!)) listener(req, res);
    else res.writeHead(404).end();
  });
  server.headersTimeout = options.headersTimeoutMs ?? 10_000;
  server.requestTimeout = options.requestTimeoutMs ?? 30_000;
  server.maxConnections = maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}${path}`,
    close: async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await listener.close();
      server.closeAllConnections();
      await stopped;
    },
  };
}

/** The card options of `http.serverCard` (`true`: all defaults). */
function cardOptions(card: ServerCardOptions | true): ServerCardOptions {
  return card === true ? {} : card;
}
