/**
 * A `notifications/resources/updated` published while a modern listen waits for the author's
 * `subscribe` hook (before the listen is acknowledged) reaches the listen right after its
 * acknowledgment, over Streamable HTTP and over stdio with a real child process
 * (test/support/early-update-server.ts).
 */
import { join } from 'node:path';
import { createServer as createNodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, streamableHttp, type Client } from '../src/client/index.js';
import type { Transport } from '../src/core/transport.js';
import { spawnStdio } from '../src/integrations/stdio/index.js';
import { toNodeListener } from '../src/integrations/node/index.js';
import { LATER, WATCHED, earlyUpdateServer } from './support/early-update-server.js';

const STDIO_SERVER = join(import.meta.dirname, '../dist/test/support/early-update-server.js');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function modernClient(transport: Transport): Promise<Client> {
  const client = createClient({ name: 'c', version: '1', era: 'modern' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

async function overHttp(): Promise<Client> {
  const listener = toNodeListener(earlyUpdateServer());
  const http = createNodeServer(listener);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    await listener.close();
    await new Promise<void>((resolve) => (http.close(() => resolve()), http.closeAllConnections()));
  });
  return modernClient(streamableHttp(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`));
}

function overStdio(): Promise<Client> {
  return modernClient(spawnStdio({ command: process.execPath, args: [STDIO_SERVER] }));
}

describe.each([
  ['Streamable HTTP', overHttp],
  ['stdio', overStdio],
])('resources/updated before the acknowledgment, %s', (_name, connect) => {
  it('is delivered after the acknowledgment, before later updates', async () => {
    const client = await connect();
    const subscription = client.listen({ resourceSubscriptions: [WATCHED, LATER] });
    cleanups.push(async () => subscription.close());
    expect((await subscription.acknowledged).resourceSubscriptions).toEqual([WATCHED, LATER]);
    await client.callTool('touch', { uri: LATER });
    const uris: unknown[] = [];
    for await (const notification of subscription) {
      uris.push(notification.params?.uri);
      if (notification.params?.uri === LATER) break;
    }
    expect(uris).toEqual([WATCHED, LATER]);
  });
});
