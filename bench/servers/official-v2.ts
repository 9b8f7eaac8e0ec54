/**
 * The official SDK v2 (`@modelcontextprotocol/server`) set up the way its documentation
 * recommends: stdio through `serveStdio(factory)` (both eras, era picked by the opening
 * exchange); HTTP through `createMcpHandler(factory, { legacy: 'reject' })` for the modern
 * wire, with 2025-era traffic routed by `isLegacyRequest` to a sessionful
 * `WebStandardStreamableHTTPServerTransport` per session (the pattern its docs give for
 * keeping stateful legacy serving). Mounted on node:http with `@hono/node-server`, the
 * converter the SDK's own Node adapters use.
 */
import { randomUUID } from 'node:crypto';
import { createServer as createNodeServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import {
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { ECHO, TRIGGER, listenAndAnnounce, wireFromArgv } from './common.js';

/** One server instance with `echo` and the trigger; `notify` publishes a tool list change. */
function build(notify: () => void): McpServer {
  const server = new McpServer({ name: 'bench-v2', version: '0.0.0' });
  server.registerTool(
    ECHO,
    { description: 'Returns the given text unchanged.', inputSchema: z.object({ text: z.string() }) },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(TRIGGER, { description: 'Announces a tool list change.' }, () => {
    notify();
    return { content: [{ type: 'text', text: 'ok' }] };
  });
  return server;
}

/** The stateful legacy leg: one transport and one server instance per session. */
function legacyLeg(notify: () => void): (request: Request) => Promise<Response> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  return async (request) => {
    const id = request.headers.get('mcp-session-id');
    const existing = id === null ? undefined : sessions.get(id);
    if (existing) return existing.handleRequest(request);
    if (id !== null) return new Response('Session not found', { status: 404 });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
      onsessionclosed: (sid) => void sessions.delete(sid),
    });
    await build(notify).connect(transport);
    return transport.handleRequest(request);
  };
}

function serveHttp(): void {
  let notify = (): void => undefined;
  const modern = createMcpHandler(() => build(notify), { legacy: 'reject' });
  notify = () => modern.notify.toolsChanged();
  const legacy = legacyLeg(notify);
  const fetch = async (request: Request): Promise<Response> =>
    (await isLegacyRequest(request)) ? legacy(request) : modern.fetch(request);
  listenAndAnnounce(createNodeServer(getRequestListener(fetch)));
}

if (wireFromArgv() === 'stdio') {
  // The stdio notify has no listen router to reach here; the trigger is HTTP-only.
  serveStdio(() => build(() => undefined));
} else {
  serveHttp();
}
