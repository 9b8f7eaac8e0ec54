/**
 * The everything server on Bun: `Bun.serve` takes mcpkit/http's web handler as its `fetch`, at
 * /mcp. mcpkit's SSE keep-alive (every 8 s by default) stays below Bun's idle timeout (10 s by
 * default), so a quiet listen stream stays open. The conformance script runs the official
 * server suite against it.
 *
 * Run: npm run build && bun dist/examples/bun-server.js --port 3000
 * In your project, import from 'mcpkit/http' instead.
 */
import { createHttpHandler } from '../src/server/http/index.js';
import { createEverythingServer } from '../servers/everything/server.js';
import { portArgument } from './port-argument.js';

/** The part of Bun's API this example uses (Bun ships its own types as `bun-types`). */
declare const Bun: {
  serve(options: {
    port: number;
    hostname: string;
    fetch(
      request: Request,
      server: { requestIP(request: Request): { address: string } | null },
    ): Promise<Response>;
  }): { port: number; stop(closeActive?: boolean): Promise<void> };
};

const handler = createHttpHandler(createEverythingServer());
const server = Bun.serve({
  port: portArgument(),
  hostname: '127.0.0.1',
  fetch: (request, bun) => {
    const url = new URL(request.url);
    if (url.pathname !== '/mcp') return Promise.resolve(new Response('Not Found', { status: 404 }));
    return handler(request, { remoteAddress: bun.requestIP(request)?.address });
  },
});
console.error(`bun: serving everything at http://127.0.0.1:${server.port}/mcp`);
process.once('SIGTERM', () => {
  // Listens get their completion result first, then the runtime's server stops.
  void handler.close().then(() => server.stop(true));
});
