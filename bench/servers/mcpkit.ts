/**
 * mcpkit's benchmark server: one definition with `echo` (zod-validated `text`) and the
 * list-change trigger, served by mcpkit's own entry points on either wire
 * (`serveStdio`; `serve` for Streamable HTTP, both eras on one endpoint).
 */
import { z } from 'zod';
import { createServer, type McpServer } from '../../src/server/index.js';
import { serveStdio } from '../../src/integrations/stdio/index.js';
import { ECHO, TRIGGER, announceHttp, wireFromArgv } from './common.js';

/** The benchmark server definition, built once. */
export function createBenchServer(): McpServer {
  const server = createServer({ name: 'bench-mcpkit', version: '0.0.0' });
  server.tool(
    ECHO,
    { description: 'Returns the given text unchanged.', inputSchema: z.object({ text: z.string() }) },
    ({ text }) => text,
  );
  server.tool(TRIGGER, { description: 'Announces a tool list change.' }, () => {
    server.notifyToolsChanged();
    return 'ok';
  });
  return server;
}

async function main(): Promise<void> {
  const server = createBenchServer();
  // MCPKIT_BENCH_MIDDLEWARE (bench/scenarios/middleware.ts): `noop` installs one middleware
  // that only calls next; `tracing` installs mcpkit/otel's with no OpenTelemetry SDK registered.
  const variant = process.env.MCPKIT_BENCH_MIDDLEWARE;
  if (variant === 'noop') server.use((next) => next);
  if (variant === 'tracing') server.use((await import('../../src/otel/index.js')).tracing());
  if (wireFromArgv() === 'stdio') {
    await serveStdio(server);
    return;
  }
  // Loaded only in HTTP mode, as an application would: stdio never pays for node:http.
  const { serve } = await import('../../src/integrations/node/index.js');
  const served = await serve(server, { port: 0 });
  announceHttp(served.url, () => {
    server.closeSubscriptions();
    return served.close();
  });
}

main().catch((error: unknown) => {
  console.error('[bench-mcpkit] fatal:', error);
  process.exit(1);
});
