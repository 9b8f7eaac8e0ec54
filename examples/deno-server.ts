/**
 * The everything server on Deno: `Deno.serve` takes mcpkit/http's web handler, at /mcp. The
 * conformance script runs the official server suite against it.
 *
 * Run: npm run build && deno run --allow-net --allow-read --allow-env dist/examples/deno-server.js --port 3000
 * In your project, import from 'npm:mcpkit/http' (or 'mcpkit/http' with a package.json) instead.
 */
import { createHttpHandler } from '../src/server/http/index.js';
import { createEverythingServer } from '../servers/everything/server.js';
import { portArgument } from './port-argument.js';

/** The part of Deno's API this example uses (Deno ships its own types). */
declare const Deno: {
  serve(
    options: { port: number; hostname: string; onListen(address: { port: number }): void },
    fetch: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
  ): { shutdown(): Promise<void> };
  addSignalListener(signal: 'SIGTERM', listener: () => void): void;
};

const handler = createHttpHandler(createEverythingServer());
const server = Deno.serve(
  {
    port: portArgument(),
    hostname: '127.0.0.1',
    onListen: ({ port }) => console.error(`deno: serving everything at http://127.0.0.1:${port}/mcp`),
  },
  (request, info) => {
    if (new URL(request.url).pathname !== '/mcp')
      return Promise.resolve(new Response('Not Found', { status: 404 }));
    return handler(request, { remoteAddress: info.remoteAddr.hostname });
  },
);
Deno.addSignalListener('SIGTERM', () => {
  // Listens get their completion result first, then the runtime's server stops.
  void handler.close().then(() => server.shutdown());
});
