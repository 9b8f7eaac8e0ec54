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
  /**
   * Send `console.log`, `console.info` and `console.debug` to stderr while serving on this
   * process's stdout (default true), with a one-time warning: stdout carries the protocol,
   * so a handler's `console.log` would otherwise corrupt it or be dropped by the client
   * without a word. `false` leaves the console alone.
   */
  redirectConsole?: boolean;
}

const WARNING =
  'mcpkit: console.log on a stdio server goes to stderr (stdout carries the protocol); log with console.error, or ctx.log to reach the client\n';

/* eslint-disable no-console -- this redirects the console; it prints nothing of its own but the warning */
/** Points the stdout methods of `console` at stderr until the returned function restores them. */
function consoleToStderr(): () => void {
  const methods = ['log', 'info', 'debug'] as const;
  const saved = methods.map((name) => console[name]);
  let warned = false;
  for (const name of methods)
    console[name] = (...args: unknown[]) => {
      if (!warned) process.stderr.write(WARNING);
      warned = true;
      console.error(...args);
    };
  return () => methods.forEach((name, i) => (console[name] = saved[i]!));
} /* eslint-enable no-console */

/**
 * Starts serving `server` over stdio. By default the process exits with code 0 once
 * stdin closes, as the spec's shutdown sequence expects, and `console.log` goes to stderr
 * (see `redirectConsole`).
 */
export async function serveStdio(
  server: McpServer,
  options: ServeStdioOptions = {},
): Promise<ServerConnection> {
  const { exitOnClose = true, redirectConsole = true, ...transportOptions } = options;
  const restore = redirectConsole && transportOptions.stdout === undefined ? consoleToStderr() : undefined;
  const connection = await connect(server, stdioServerTransport(transportOptions));
  if (restore) void connection.closed.then(restore);
  if (exitOnClose) {
    // Flush what is already queued on stdout before exiting.
    void connection.closed.then(() => process.stdout.write('', () => process.exit(0)));
  }
  return connection;
}
