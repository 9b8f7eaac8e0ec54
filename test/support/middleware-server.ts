/**
 * The server the middleware tests talk to, over HTTP in-process or over stdio as a child
 * process (run this file's build output). Its middleware: logging, a rate limiter (tool
 * `limited`, 2 calls), `_meta` on results, and one that cancels calls of `doomed`.
 * Tools report what the server saw, so a client in another process can check it.
 */
import { fileURLToPath } from 'node:url';
import { createServer, type McpServer } from '../../src/server/index.js';
import { serveStdio } from '../../src/integrations/stdio/index.js';
import { addMeta, logging, rateLimit, refuseToRun, type LogEntry } from './middleware.js';

/** Builds the fixture server; `log` receives the logging middleware's lines. */
export function middlewareServer(log: LogEntry[] = []): McpServer {
  let releaseCancelled!: () => void;
  const cancelled = new Promise<void>((resolve) => (releaseCancelled = resolve));
  const server = createServer({ name: 'middleware-fixture', version: '1.0.0' })
    // Answers `tools/call` of `hollow` itself, without a result object.
    .use(
      (next) => (message, ctx) =>
        message.method === 'tools/call' && message.params?.name === 'hollow'
          ? Promise.resolve(undefined)
          : next(message, ctx),
    )
    .use(logging(log))
    .use(rateLimit('limited', 2))
    .use(addMeta('example.com/served-by', 'server-middleware'))
    .use(refuseToRun('doomed'));
  server.tool('log', { description: 'What the logging middleware saw' }, () => ({
    content: [{ type: 'text', text: JSON.stringify(log.map((e) => e.line)) }],
  }));
  server.tool('limited', {}, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  server.tool('echo-meta', {}, (_args, ctx) => ({
    content: [{ type: 'text', text: JSON.stringify(ctx.meta) }],
  }));
  server.tool('doomed', {}, (_args, ctx) => ({
    content: [{ type: 'text', text: ctx.signal.aborted ? `aborted: ${String(ctx.signal.reason)}` : 'ran' }],
  }));
  server.tool('slow', {}, async (_args, ctx) => {
    ctx.progress(1, { total: 2 });
    await new Promise<void>((resolve) =>
      ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    releaseCancelled();
    return { content: [{ type: 'text', text: 'cancelled' }] };
  });
  server.tool('wait-cancelled', {}, async () => {
    await cancelled;
    return { content: [{ type: 'text', text: 'slow was cancelled' }] };
  });
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) void serveStdio(middlewareServer());
