/**
 * The transport contract (test/support/transport-contract.ts) run against every transport
 * mcpkit ships, on both eras: the in-memory linked pair, stdio with a real child process,
 * and Streamable HTTP on a loopback port.
 */
import { join } from 'node:path';
import { connect as serveOn } from '../src/server/index.js';
import { createLinkedPair } from '../src/testing/index.js';
import { spawnStdio } from '../src/integrations/stdio/index.js';
import { serve } from '../src/integrations/node/index.js';
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
    const served = await serve(contractServer(), { port: 0 });
    const client = await contractClient(streamableHttp(served.url), { era, ...options });
    return {
      client,
      kill: () => served.close(),
      close: async () => (await client.close(), await served.close()),
    };
  });
}
