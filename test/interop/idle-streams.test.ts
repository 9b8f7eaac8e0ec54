/**
 * Long-lived streams and fan-out against the per-principal bounds, with the official v2
 * (modern) and v1 (legacy) clients over Streamable HTTP on loopback, where every local
 * client is one principal (`addr:127.0.0.1`): idle listens and idle legacy sessions (each
 * with its GET stream) are held under their own bounds, never as requests in progress, and
 * more concurrent calls from one client than its in-progress bound wait for a slot instead
 * of getting 429.
 */
import { createServer as createNodeServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttp,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeListener, type McpNodeListener } from '../../src/integrations/node/index.js';
import { createEverythingServer } from '../../servers/everything/server.js';
import { deferred } from '../support/wait.js';

// Above the in-progress bound (100 per principal by default), within the listen and session shares (102).
const MANY = 101;

let http: Server;
let listener: McpNodeListener;
let url: URL;
/** POSTs received by the node server, counted before the endpoint admits them. */
let posts = 0;
/** Opens once `posts` reaches `target`: the calls of the fan-out all reached the server. */
let gate = { target: Infinity, open: deferred<void>() };

beforeAll(async () => {
  const server = createEverythingServer();
  server.tool('hold', { description: 'Answers once every call of the fan-out has arrived' }, async () => {
    await gate.open.promise;
    return 'held';
  });
  listener = toNodeListener(server, { bindAddress: '127.0.0.1' });
  http = createNodeServer((req, res) => {
    if (req.method === 'POST' && ++posts >= gate.target) gate.open.resolve();
    listener(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
});

afterAll(async () => {
  listener?.close();
  if (!http) return;
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

function modernClient(): ModernClient {
  return new ModernClient(
    { name: 'official-v2-client', version: '2.4.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
}

async function legacyClient(): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'official-v1-client', version: '1.32.2' });
  await client.connect(new LegacyHttp(url));
  return client;
}

async function endSession(client: LegacyClient): Promise<void> {
  await (client.transport as LegacyHttp | undefined)?.terminateSession();
  await client.close();
}

/** Calls `hold` MANY times at once on `call`; every call waits until all have reached the server. */
async function fanOut(call: () => Promise<unknown>): Promise<unknown[]> {
  gate = { target: posts + MANY, open: deferred<void>() };
  return Promise.all(Array.from({ length: MANY }, call));
}

describe('idle streams and fan-out on loopback (one principal)', () => {
  it(`${MANY} idle listens from the official v2 client, then a tools/call still succeeds`, async () => {
    const client = modernClient();
    await client.connect(new ModernHttp(url));
    try {
      const listens = [];
      for (let i = 0; i < MANY; i++) listens.push(await client.listen({ toolsListChanged: true }));
      const echoed = await client.callTool({ name: 'echo', arguments: { text: 'after listens' } });
      expect(echoed.content).toEqual([{ type: 'text', text: 'after listens' }]);
      await Promise.all(listens.map((listen) => listen.close()));
    } finally {
      await client.close();
    }
  });

  it(`${MANY} idle legacy sessions of the official v1 client (each with its GET stream), then a new initialize succeeds`, async () => {
    const idle: LegacyClient[] = [];
    try {
      for (let i = 0; i < MANY; i++) idle.push(await legacyClient());
      const fresh = await legacyClient();
      idle.push(fresh);
      const echoed = await fresh.callTool({ name: 'echo', arguments: { text: 'new session' } });
      expect(echoed.content).toEqual([{ type: 'text', text: 'new session' }]);
    } finally {
      // DELETE each session (the v1 client's close() leaves it open until its idle timeout),
      // so the next case starts within this principal's share of sessions again.
      await Promise.all(idle.map((client) => endSession(client)));
    }
  });

  it(`${MANY} concurrent tools/call from one official v2 client all succeed (queued, not refused)`, async () => {
    const client = modernClient();
    await client.connect(new ModernHttp(url));
    try {
      const results = await fanOut(() => client.callTool({ name: 'hold', arguments: {} }));
      expect(results).toEqual(
        Array(MANY).fill(expect.objectContaining({ content: [{ type: 'text', text: 'held' }] })),
      );
    } finally {
      await client.close();
    }
  });

  it(`${MANY} concurrent tools/call from one official v1 client on one legacy session all succeed`, async () => {
    const client = await legacyClient();
    try {
      const results = await fanOut(() => client.callTool({ name: 'hold', arguments: {} }));
      expect(results).toEqual(
        Array(MANY).fill(expect.objectContaining({ content: [{ type: 'text', text: 'held' }] })),
      );
    } finally {
      await client.close();
    }
  });
});
