/**
 * Defect: over Streamable HTTP, the Origin check compares the Origin with the request's own
 * Host header, so a DNS-rebinding page (foreign Host, matching Origin) passes it. A foreign
 * Origin alone is refused with 403, as it should be. Built with the official SDK v1's
 * low-level `Server` and its `StreamableHTTPServerTransport` (stateless), on node:http,
 * bound to 127.0.0.1 on a free port; prints its URL on stdout and runs until killed.
 */
import { createServer } from 'node:http';
import process from 'node:process';
import { URL } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CALL_TOOL, ECHO, callEcho } from './base.mjs';

function mcpServer() {
  const server = new Server({ name: 'broken-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [ECHO] }));
  server.setRequestHandler(CALL_TOOL, callEcho);
  return server;
}

const http = createServer(async (req, res) => {
  const origin = req.headers.origin;
  // The defect: "same origin" is judged against the Host the request itself names.
  if (origin !== undefined && new URL(origin).host !== req.headers.host) {
    res.writeHead(403, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Origin not allowed' } }),
    );
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  const server = mcpServer();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.on('close', () => void transport.close().then(() => server.close()));
  await server.connect(transport);
  await transport.handleRequest(req, res);
});

http.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`));
