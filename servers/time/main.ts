/**
 * `node dist/servers/time/main.js`: the time server over stdio, configured with the official
 * server's arguments (`--local-timezone`); what `mcpkit serve time` runs. Exit codes as in
 * ../shared/stdio-main.ts.
 */
import { runStdioServer } from '../shared/stdio-main.js';
import { createReferenceServer } from './server.js';

runStdioServer('time', createReferenceServer);
