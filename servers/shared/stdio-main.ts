/**
 * The stdio entry every reference server's `main.ts` runs (`node dist/servers/NAME/main.js
 * [ARGS…]`, what a host's `mcpServers` entry spawns). Stdout carries only protocol messages
 * and diagnostics go to stderr (`console.log` too, see `serveStdio`). Exit codes: 0 when the
 * client closes the connection, 2 when the server refuses its command line or misses an
 * optional package (LocalError `INVALID_ARGUMENT` or `MISSING_DEPENDENCY`, its message on
 * stderr), 1 on any other failure to start.
 * Source: 2026-07-28 basic/transports/stdio.
 */
import { LocalError } from '../../src/core/index.js';
import { serveStdio } from '../../src/integrations/stdio/index.js';
import type { McpServer } from '../../src/server/index.js';

/** A reference server's factory: the official server's command line and environment in, the server out. */
type ServerFactory = (
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
) => Promise<McpServer>;

/** Builds the server `name` from this process's arguments and environment, then serves it on stdio. */
export function runStdioServer(name: string, create: ServerFactory): void {
  create(process.argv.slice(2), process.env)
    .then((server) => serveStdio(server))
    .catch((error: unknown) => {
      if (
        error instanceof LocalError &&
        (error.code === 'INVALID_ARGUMENT' || error.code === 'MISSING_DEPENDENCY')
      ) {
        console.error(`[${name}] ${error.message}`);
        process.exit(2);
      }
      console.error(`[${name}] fatal:`, error);
      process.exit(1);
    });
}
