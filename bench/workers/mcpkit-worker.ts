/**
 * The cold-start benchmark's mcpkit Worker: one `echo` tool (zod-validated `text`) served by
 * `mcpkit/cloudflare`'s `createWorker`, no Durable Objects (the modern era is stateless).
 */
import { z } from 'zod';
import { createWorker } from '../../src/integrations/cloudflare/index.js';
import { createServer } from '../../src/server/index.js';

export default createWorker(() => {
  const server = createServer({ name: 'bench-mcpkit-worker', version: '0.0.0' });
  server.tool(
    'echo',
    { description: 'Returns the given text unchanged.', inputSchema: z.object({ text: z.string() }) },
    ({ text }) => text,
  );
  return server;
});
