/**
 * The transport contract (test/support/transport-contract.ts) run against every transport
 * mcpkit ships, on both eras: the in-memory linked pair, stdio with a real child process,
 * and Streamable HTTP on a loopback port.
 */
import { join } from 'node:path';
import { connect as serveOn } from '../src/server/index.js';
import { createLinkedPair } from '../src/testing/index.js';
import { spawnStdio } from '../src/integrations/stdio/index.js';
import { createServer as createNodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener } from '../src/integrations/node/index.js';
import { streamableHttp } from '../src/client/index.js';
import { contractServer } from './support/contract-server.js';
import { contractClient, describeTransport } from './support/transport-contract.js';

const STDIO_SERVER = join(import.meta.dirname, '../dist/test/support/contract-server.js');

for (const era of ['modern', 'legacy'] as const) {
  describeTransport(`linked pair, ${era}`, async (options) => {
    const [clientEnd, serverEnd] = createLinkedPair();
    const served = await serveOn(contractServer(), serverEnd);
    const client = await contractClient(clientEnd, { era, ...options });
    return {
      client,
      kill: () => serverEnd.close(),
      close: async () => (await client.close(), await served.close()),
    };
  });

  describeTransport(`stdio, ${era}`, async (options) => {
    const transport = spawnStdio({ command: process.execPath, args: [STDIO_SERVER] });
    const client = await contractClient(transport, { era, ...options });
    return {
      client,
      kill: async () => void process.kill(transport.pid ?? 0, 'SIGKILL'),
      close: () => client.close(),
    };
  });

  describeTransport(`Streamable HTTP, ${era}`, async (options) => {
    const listener = toNodeListener(contractServer());
    const http = createNodeServer(listener);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    const client = await contractClient(streamableHttp(url), { era, ...options });
    // A peer that dies answers nothing more: its connections are cut (close() is graceful).
    const die = (): Promise<void> =>
      new Promise((resolve) => (http.close(() => resolve()), http.closeAllConnections()));
    return {
      client,
      kill: die,
      close: async () => (await client.close(), await listener.close(), await die()),
    };
  });
}
