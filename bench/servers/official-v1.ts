/**
 * The official SDK v1 (`@modelcontextprotocol/sdk`), legacy era only, set up as its
 * README shows: `StdioServerTransport` for stdio; for HTTP a sessionful
 * `StreamableHTTPServerTransport` per session, created on `initialize` and looked up by
 * `Mcp-Session-Id` afterwards (the README's Express example, on plain node:http with the
 * body parsed here as `express.json()` would).
 */
import { randomUUID } from 'node:crypto';
import { createServer as createNodeServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ECHO, listenAndAnnounce, wireFromArgv } from './common.js';

function build(): McpServer {
  const server = new McpServer({ name: 'bench-v1', version: '0.0.0' });
  server.registerTool(
    ECHO,
    { description: 'Returns the given text unchanged.', inputSchema: { text: z.string() } },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function sessionHandler(): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  return async (req, res) => {
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? sessions.get(id) : undefined;
    if (existing) return existing.handleRequest(req, res, body);
    if (id !== undefined || !isInitializeRequest(body)) {
      res.writeHead(id === undefined ? 400 : 404).end();
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await build().connect(transport);
    await transport.handleRequest(req, res, body);
  };
}

if (wireFromArgv() === 'stdio') {
  void build().connect(new StdioServerTransport());
} else {
  const handle = sessionHandler();
  listenAndAnnounce(
    createNodeServer((req, res) => {
      handle(req, res).catch(() => res.writeHead(500).end());
    }),
  );
}
