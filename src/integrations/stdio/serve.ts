/**
 * Serves a server definition on this process's stdin/stdout.
 * Source: 2026-07-28 basic/transports/stdio (exit when stdin closes; nothing but protocol on stdout).
 */
import { connect, type McpServer, type ServerConnection } from '../../server/index.js';
import { stdioServerTransport, type StdioServerOptions } from './server-transport.js';

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions extends StdioServerOptions {
  /** Exit the process when the client closes stdin (default true). */
  exitOnClose?: boolean;
}

/**
 * Starts serving `server` over stdio. By default the process exits with code 0 once
 * stdin closes, as the spec's shutdown sequence expects.
 */
export async function serveStdio(
  server: McpServer,
  options: ServeStdioOptions = {},
): Promise<ServerConnection> {
  const { exitOnClose = true, ...transportOptions } = options;
  const connection = await connect(server, stdioServerTransport(transportOptions));
  if (exitOnClose) {
    // Flush what is already queued on stdout before exiting.
    void connection.closed.then(() => process.stdout.write('', () => process.exit(0)));
  }
  return connection;
}
