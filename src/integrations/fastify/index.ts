/**
 * `mcpkit/fastify`: serve an MCP server from a Fastify plugin. Only converts: the route
 * takes over Fastify's raw node request and response and hands them to `mcpkit/node`'s
 * listener for the Streamable HTTP endpoint (`mcpkit/http`), where all MCP behaviour stays.
 * Source: 2026-07-28 basic/transports/streamable-http; 2025-11-25 basic/transports.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { McpServer } from '../../server/index.js';
import type { HttpHandlerOptions } from '../../server/http/index.js';
import { toNodeListener, type FetchHandler } from '../node/index.js';

const CARD_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/**
 * A Fastify plugin serving MCP at its prefix (`app.register(plugin, { prefix: '/mcp' })`);
 * `close()` shuts down the endpoint built here (each open listen gets its completion
 * result; see `McpNodeListener.close`). It also runs on Fastify's `preClose`, before
 * Fastify stops its server, so `app.close()` does not wait on open streams.
 */
export interface FastifyMcpPlugin {
  (instance: FastifyInstance): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the Fastify plugin of `server` (or of a web handler such as `createHttpHandler`'s),
 * as `toNodeListener(server, options)` does; `options` are the endpoint's (`maxBodyBytes`,
 * `allowedHosts`, `allowedOrigins`, ...); with `serverCard`, the card at `<prefix>/server-card`. Inside the plugin's own (encapsulated) context
 * Fastify's body parsers are replaced by one that leaves the body unread, so the endpoint
 * reads it with its own limit; the rest of the app keeps its parsers and `bodyLimit`.
 */
export function mcpFastify(
  server: McpServer | FetchHandler,
  options: HttpHandlerOptions = {},
): FastifyMcpPlugin {
  const listener = toNodeListener(server, options);
  const plugin = async (instance: FastifyInstance): Promise<void> => {
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    const route = (request: FastifyRequest, reply: FastifyReply): void => {
      reply.hijack();
      listener(request.raw, reply.raw);
    };
    instance.all('/', route);
    if (options.serverCard !== undefined)
      instance.route({ method: CARD_METHODS, url: '/server-card', handler: route });
    instance.addHook('preClose', () => listener.close());
  };
  return Object.assign(plugin, { close: () => listener.close() });
}
