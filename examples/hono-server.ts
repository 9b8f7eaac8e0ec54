/**
 * The everything server on a Hono app (served on node by @hono/node-server), at /mcp, with
 * Hono's bodyLimit in front of it. The conformance script runs the official server suite
 * against it.
 *
 * Run: npm run build && node dist/examples/hono-server.js --port 3000
 * In your project, import from 'mcpkit/hono' instead.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { mcpHono } from '../src/integrations/hono/index.js';
import { createEverythingServer } from '../servers/everything/server.js';
import { portArgument } from './port-argument.js';

const maxSize = 8 * 1024 * 1024;
const mcp = mcpHono(createEverythingServer(), { maxBodyBytes: maxSize });
const app = new Hono();
app.use('/mcp', bodyLimit({ maxSize }));
app.all('/mcp', mcp);

const server = serve({ fetch: app.fetch, port: portArgument(), hostname: '127.0.0.1' }, (info) =>
  console.error(`hono: serving everything at http://127.0.0.1:${info.port}/mcp`),
);
process.once('SIGTERM', () => {
  void mcp.close().then(() => server.close());
});
