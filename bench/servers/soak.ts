/**
 * The soak scenario's server: mcpkit's benchmark definition with its limits raised so
 * 10 000 listen streams fit (HTTP connections and listen streams), served on either wire.
 */
import { serveStdio } from '../../src/integrations/stdio/index.js';
import { createServer, type McpServer } from '../../src/server/index.js';
import { z } from 'zod';
import { ECHO, announceHttp, wireFromArgv } from './common.js';

const STREAMS = 20_000;

function createSoakServer(): McpServer {
  const server = createServer({
    name: 'soak-mcpkit',
    version: '0.0.0',
    // All soak clients come from one address: the per-principal bounds are raised with the global ones.
    limits: { maxListenStreams: STREAMS, maxListenStreamsPerPrincipal: STREAMS },
  });
  server.tool(
    ECHO,
    { description: 'Returns the given text unchanged.', inputSchema: z.object({ text: z.string() }) },
    ({ text }) => text,
  );
  return server;
}

async function main(): Promise<void> {
  const server = createSoakServer();
  if (wireFromArgv() === 'stdio') {
    await serveStdio(server);
    return;
  }
  const { serve } = await import('../../src/integrations/node/index.js');
  const served = await serve(server, {
    port: 0,
    maxConnections: STREAMS + 100,
    http: { principals: { maxConcurrentRequests: STREAMS + 100 } },
  });
  announceHttp(served.url, () => {
    server.closeSubscriptions();
    return served.close();
  });
}

void main();
