/**
 * `node dist/servers/git/main.js`: the git server over stdio, configured with the official
 * server's arguments (`--repository`); what `mcpkit serve git` runs. Exit codes as in
 * ../shared/stdio-main.ts.
 */
import { runStdioServer } from '../shared/stdio-main.js';
import { createReferenceServer } from './server.js';

runStdioServer('git', createReferenceServer);
