/**
 * `mcpkit serve everything`: the reference server on stdio, or on Streamable HTTP with
 * `--port`. HTTP mode prints the endpoint URL to stderr and stops on SIGINT or SIGTERM.
 */
import { serve } from '../integrations/node/index.js';
import { serveStdio } from '../integrations/stdio/index.js';
import { createEverythingServer } from '../../servers/everything/server.js';

/** Serves until the client goes away (stdio) or a signal arrives (HTTP). */
export async function serveEverything(options: { port?: number; host?: string }): Promise<void> {
  const server = createEverythingServer({
    onError: (error, request) => console.error(`[everything] ${request?.method ?? 'message'} failed:`, error),
  });
  if (options.port === undefined) {
    await serveStdio(server);
    return;
  }
  const served = await serve(server, { port: options.port, ...(options.host ? { host: options.host } : {}) });
  process.stderr.write(`mcpkit: serving everything at ${served.url} (Ctrl-C to stop)\n`);
  await signalled();
  await served.close();
}

/** Resolves on the first SIGINT or SIGTERM. */
function signalled(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop).on('SIGTERM', stop);
  });
}
