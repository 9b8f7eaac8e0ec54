/**
 * The everything server on a Fastify app, at /mcp, next to the app's own JSON routes.
 * The conformance script runs the official server suite against it.
 *
 * Run: npm run build && node dist/examples/fastify-server.js --port 3000
 * In your project, import from 'mcpkit/fastify' instead.
 */
import Fastify from 'fastify';
import { mcpFastify } from '../src/integrations/fastify/index.js';
import { createEverythingServer } from '../servers/everything/server.js';
import { portArgument } from './port-argument.js';

async function main(): Promise<void> {
  const app = Fastify({ bodyLimit: 100 * 1024 });
  // The plugin's own context swaps Fastify's body parsers for a pass-through, so the
  // endpoint reads the body with its own limit (maxBodyBytes); /api keeps Fastify's JSON.
  await app.register(mcpFastify(createEverythingServer(), { maxBodyBytes: 8 * 1024 * 1024 }), {
    prefix: '/mcp',
  });
  app.post('/api/notes', async (request) => ({ received: request.body }));
  const address = await app.listen({ port: portArgument(), host: '127.0.0.1' });
  console.error(`fastify: serving everything at ${address}/mcp`);
  process.once('SIGTERM', () => void app.close());
}

void main();
