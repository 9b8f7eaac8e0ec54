/**
 * An mcpkit server behind mcpkit/auth on a random loopback port, for authorization tests:
 * `whoami` (any token) answers with the caller's subject, client id and scopes; `write`
 * needs scope `mcp:write`; `secret` prompt needs `mcp:admin`.
 */
import { createServer as createNodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpAuthGuard } from '../../src/server/http/index.js';
import { createServer, type McpServer } from '../../src/server/index.js';
import { toNodeListener, type NodeListener } from '../../src/integrations/node/index.js';

/** A running protected server. */
export interface ProtectedServer {
  url: string;
  server: McpServer;
  close(): Promise<void>;
}

/** The test server definition. */
export function protectedDefinition(): McpServer {
  const server = createServer({ name: 'protected', version: '1.0.0' });
  server.tool('whoami', { description: 'Who is calling' }, (_args, ctx) => ({
    content: [
      {
        type: 'text',
        text: JSON.stringify({
          sub: ctx.auth?.subject,
          client: ctx.auth?.clientId,
          scopes: ctx.auth?.scopes,
          jkt: (ctx.auth?.claims?.cnf as { jkt?: string } | undefined)?.jkt,
        }),
      },
    ],
  }));
  server.tool('write', { description: 'Needs mcp:write', scopes: ['mcp:write'] }, () => ({
    content: [{ type: 'text', text: 'written' }],
  }));
  server.prompt('secret', { description: 'Needs mcp:admin', scopes: ['mcp:admin'] }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'secret' } }],
  }));
  return server;
}

/** Serves `server` at `/mcp` with the guard `guardFor(url)` builds. */
export async function startProtected(
  guardFor: (url: string) => HttpAuthGuard,
  server: McpServer = protectedDefinition(),
): Promise<ProtectedServer> {
  let listener: NodeListener = (_q, s) => void s.writeHead(503).end();
  const http = createNodeServer((req, res) => listener(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const endpoint = toNodeListener(server, { auth: guardFor(url) });
  listener = endpoint;
  return {
    url,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        endpoint.close();
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
