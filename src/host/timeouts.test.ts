import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../client/index.js';
import { serve, type Served } from '../integrations/node/index.js';
import { streamableHttp } from '../client/index.js';
import { referenceEntry } from '../../test/interop/helpers.js';
import { createGateway, createHost, type Host } from './index.js';

const SILENT = ['-e', 'setInterval(() => {}, 1000)']; // a process that never answers

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe("a server that never becomes ready: the error names the host's limit and its option", () => {
  it('connectTimeoutMs, the host-wide default', async () => {
    host = createHost({
      servers: { slow: { command: process.execPath, args: SILENT } },
      connectTimeoutMs: 300,
    });
    await host.start();
    expect(host.status()[0]?.reason).toContain(
      "server 'slow' did not become ready within 300 ms (connectTimeoutMs)",
    );
  });

  it("the server's own timeoutMs, when its entry sets one", async () => {
    const servers = { slow: { command: process.execPath, args: SILENT, timeoutMs: 250 } };
    host = createHost({ servers, connectTimeoutMs: 60_000 });
    await host.start();
    expect(host.status()[0]?.reason).toContain('within 250 ms (mcpServers.slow.timeoutMs)');
  });
});

describe('a call that gets no answer in time: the error names the option that set the limit', () => {
  const LONG = 'every__trigger-long-running-operation';
  const every = { command: process.execPath, args: [referenceEntry('server-everything'), 'stdio'] };

  it("the host's requestTimeoutMs, and a call's own timeoutMs", async () => {
    host = createHost({ servers: { every }, requestTimeoutMs: 300 });
    await host.start();
    await expect(host.callTool(LONG, { duration: 5, steps: 1 })).rejects.toThrow(
      /timed out after 300 ms without a response or progress \(requestTimeoutMs\)/,
    );
    await expect(host.callTool(LONG, { duration: 5, steps: 1 }, { timeoutMs: 200 })).rejects.toThrow(
      /timed out after 200 ms without a response or progress \(timeoutMs\)/,
    );
  });

  it("the gateway's callTimeoutMs, as its front client sees it", async () => {
    host = createHost({ servers: { every } });
    await host.start();
    const gateway = createGateway(host, { callTimeoutMs: 300 });
    let front: Served | undefined;
    const client = createClient({ name: 'front', version: '0.0.0' });
    try {
      front = await serve(gateway.server, { port: 0 });
      await client.connect(streamableHttp(front.url));
      const outcome = await client.callTool(LONG, { duration: 5, steps: 1 }).then(
        (result) => JSON.stringify(result),
        (error: Error) => error.message,
      );
      expect(outcome).toMatch(/300 ms without a response or progress \(callTimeoutMs\)/);
    } finally {
      await client.close();
      await front?.close();
      gateway.close();
    }
  });
});
