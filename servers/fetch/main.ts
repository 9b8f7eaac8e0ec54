/**
 * `node dist/servers/fetch/main.js`: the fetch server over stdio, configured with the official
 * server's arguments (`--user-agent`, `--ignore-robots-txt`, `--proxy-url`) and mcpkit's
 * `--allow-private-network`; what `mcpkit serve fetch` runs. Exit codes as in
 * ../shared/stdio-main.ts.
 */
import { runStdioServer } from '../shared/stdio-main.js';
import { createReferenceServer } from './server.js';

runStdioServer('fetch', createReferenceServer);
