/**
 * `node dist/servers/everything/main.js`: the everything server over stdio (what `mcpkit inspect`
 * spawns when given no server); a failed request's error goes to stderr. Exit codes as in
 * ../shared/stdio-main.ts.
 */
import { runStdioServer } from '../shared/stdio-main.js';
import { createEverythingServer } from './server.js';

runStdioServer('everything', () =>
  Promise.resolve(
    createEverythingServer({
      onError: (error, request) =>
        console.error(`[everything] ${request?.method ?? 'message'} failed:`, error),
    }),
  ),
);
