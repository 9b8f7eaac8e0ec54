/**
 * A Next.js App Router route handler (save as `app/mcp/route.ts`): route handlers take a web
 * `Request` and return a `Response`, so mcpkit/http's handler is the whole adapter. Serverless
 * invocations keep no state between requests, so the server is modern-only (stateless);
 * a legacy `initialize` is refused with the spec's error. test/examples/deploying.test.ts calls
 * these exports with built Requests, as Next.js does.
 *
 * In your project, import from 'mcpkit/server' and 'mcpkit/http' instead.
 */
import { z } from 'zod';
import { createServer } from '../src/server/index.js';
import { createHttpHandler } from '../src/server/http/index.js';

const server = createServer({ name: 'next-example', version: '1.0.0', eras: ['modern'] });
server.tool(
  'add',
  { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) },
  ({ a, b }) => String(a + b),
);

// Served on the deployment's public name: any Host, and an Origin (when sent) must be its own.
const handler = createHttpHandler(server, { bindAddress: '0.0.0.0' });

/** `POST /mcp`: every modern request. */
export const POST = (request: Request): Promise<Response> => handler(request);
/** `GET /mcp`: 405 on the modern wire, as the spec says. */
export const GET = POST;
