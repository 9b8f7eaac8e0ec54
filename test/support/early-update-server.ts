/**
 * A server whose `subscribe` hook announces a change of the resource it starts watching at
 * once, before the listen that asked for it is acknowledged (the case of a watcher that
 * reports the current state on start), and a tool `touch` that announces a change of the
 * resource it names later. Also runnable as a stdio server:
 * `node dist/test/support/early-update-server.js`.
 */
import { fileURLToPath } from 'node:url';
import { createServer, type McpServer } from '../../src/server/index.js';
import { serveStdio } from '../../src/integrations/stdio/index.js';

/** The resource whose subscribe hook announces an update before the acknowledgment. */
export const WATCHED = 'file:///watched';
/** A resource announced only when `touch` names it. */
export const LATER = 'file:///later';

/** Builds the server; each call returns an independent definition. */
export function earlyUpdateServer(): McpServer {
  const server = createServer({
    name: 'early-update',
    version: '1.0.0',
    resourceSubscriptions: {
      subscribe: (uri) => {
        if (uri === WATCHED) server.notifyResourceUpdated(uri);
      },
    },
  });
  for (const uri of [WATCHED, LATER]) server.resource(uri, { name: uri }, (u) => [{ uri: u, text: 'x' }]);
  const input = {
    type: 'object',
    properties: { uri: { type: 'string', maxLength: 100 } },
    required: ['uri'],
  };
  server.tool('touch', { inputSchema: input }, (args) => {
    server.notifyResourceUpdated((args as { uri: string }).uri);
    return 'touched';
  });
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) void serveStdio(earlyUpdateServer());
