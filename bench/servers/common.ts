/**
 * What every benchmark server entry shares: how it is told which wire to serve, how it
 * reports its HTTP endpoint, and how it is stopped.
 *
 * An entry is run as `node <entry>.js stdio|http`. In `http` mode it prints one line,
 * `READY <url>`, on stdout once listening, and exits when its stdin closes (so the harness
 * can stop it gracefully and `--cpu-prof` gets to write its profile).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The two ways a benchmark server is served. */
export type Wire = 'stdio' | 'http';

/** The wire named on the command line. @throws Error when it is neither `stdio` nor `http`. */
export function wireFromArgv(): Wire {
  const wire = process.argv[2];
  if (wire === 'stdio' || wire === 'http') return wire;
  throw new Error(`usage: node <server>.js stdio|http (got ${String(wire)})`);
}

/** Prints the `READY <url>` line and exits once stdin closes (after `close`, if given). */
export function announceHttp(url: string, close?: () => Promise<void> | void): void {
  process.stdout.write(`READY ${url}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    void Promise.resolve(close?.()).finally(() => process.exit(0));
  });
}

/** Listens on a free loopback port and announces `http://127.0.0.1:<port>/mcp`. */
export function listenAndAnnounce(server: Server): void {
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    announceHttp(`http://127.0.0.1:${port}/mcp`, () => {
      server.closeAllConnections();
      server.close();
    });
  });
}

/** The tool names every benchmark server exposes. */
export const ECHO = 'echo';
/** Calls `notifyToolsChanged()` (or the SDK's equivalent): drives the listen fan-out figure. */
export const TRIGGER = 'trigger_tools_changed';
