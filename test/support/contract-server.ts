/**
 * The server every transport of the contract suite serves: an echo, a tool that reports
 * progress in order, one that floods log messages, one that waits to be cancelled, and one
 * that says whether the last wait saw its cancellation. Also runnable as a stdio server:
 * `node dist/test/support/contract-server.js`.
 */
import { fileURLToPath } from 'node:url';
import { createServer, type McpServer } from '../../src/server/index.js';
import { serveStdio } from '../../src/integrations/stdio/index.js';

/** Builds the contract server; each call returns an independent definition. */
export function contractServer(): McpServer {
  const server = createServer({ name: 'contract', version: '1.0.0' });
  let lastWaitAborted = false;
  server.tool(
    'echo',
    { inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    (args) => (args as { text: string }).text,
  );
  server.tool(
    'steps',
    { inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
    (args, ctx) => {
      const { n } = args as { n: number };
      for (let i = 1; i <= n; i++) ctx.progress(i, { total: n });
      return `${n} steps`;
    },
  );
  server.tool(
    'storm',
    { inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
    (args, ctx) => {
      const { n } = args as { n: number };
      for (let i = 0; i < n; i++) ctx.log('info', i);
      return `${n} logged`;
    },
  );
  server.tool('wait', {}, (_args, ctx) => {
    lastWaitAborted = false;
    ctx.progress(1);
    return new Promise<string>((_resolve, reject) =>
      ctx.signal.addEventListener('abort', () => {
        lastWaitAborted = true;
        reject(new Error('cancelled'));
      }),
    );
  });
  server.tool('lastWaitAborted', {}, () => String(lastWaitAborted));
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) void serveStdio(contractServer());
