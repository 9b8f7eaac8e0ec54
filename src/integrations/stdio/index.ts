/**
 * `mcpkit/stdio`: the stdio transport for Node — the server end over this process's
 * stdin/stdout, and the client end that launches a server as a child process.
 * Source: 2026-07-28 basic/transports/stdio.
 */
export { STDIO_PROGRESS_GAP_MS, stdioServerTransport, type StdioServerOptions } from './server-transport.js';
export { spawnStdio, type SpawnStdioOptions, type StdioClientTransport } from './client-transport.js';
export { serveStdio, type ServeStdioOptions } from './serve.js';
