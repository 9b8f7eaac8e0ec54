/**
 * Middleware on both sides: the server logs and times every request and refuses a fourth
 * call of a tool with a JSON-RPC error; the client adds a `_meta` field to what it sends.
 * Client and server run in one process over the in-memory pair.
 *
 * Run: npm run build && node dist/examples/middleware.js
 * In your project, import from 'mcpkit', 'mcpkit/server', 'mcpkit/client' and 'mcpkit/testing'.
 */
import { WireError, type Middleware } from '../src/core/index.js';
import { connect, createServer } from '../src/server/index.js';
import { createClient } from '../src/client/index.js';
import { createLinkedPair } from '../src/testing/index.js';

const timing: Middleware = (next) => async (message, ctx) => {
  const started = performance.now();
  try {
    return await next(message, ctx);
  } finally {
    const ms = (performance.now() - started).toFixed(2);
    console.log(`${ctx.side} ${ctx.direction} ${message.method} (${ctx.era ?? 'settling'}) ${ms} ms`);
  }
};

function atMost(calls: number): Middleware {
  let used = 0;
  return (next) => async (message, ctx) => {
    if (message.method === 'tools/call' && ++used > calls) throw new WireError(-32029, 'Rate limit exceeded');
    return next(message, ctx);
  };
}

const traced: Middleware = (next) => async (message, ctx) => {
  if (ctx.direction !== 'outgoing' || message.kind !== 'request') return next(message, ctx);
  const _meta = { ...(message.params?._meta as object), 'example.com/request-origin': 'example' };
  return next({ ...message, params: { ...message.params, _meta } }, ctx);
};

async function main(): Promise<void> {
  const server = createServer({ name: 'example', version: '1.0.0' }).use(timing).use(atMost(3));
  server.tool('hello', {}, (_args, ctx) => ({
    content: [{ type: 'text', text: `hello from ${String(ctx.meta['example.com/request-origin'])}` }],
  }));
  const [clientEnd, serverEnd] = createLinkedPair();
  await connect(server, serverEnd);
  const client = createClient({ name: 'example-client', version: '1.0.0', middleware: [traced] });
  await client.connect(clientEnd);
  for (let i = 0; i < 4; i++) {
    const outcome = await client.callTool('hello', {}).catch((error: Error) => error);
    console.log(outcome instanceof Error ? `refused: ${outcome.message}` : outcome.content);
  }
  await client.close();
}

void main();
