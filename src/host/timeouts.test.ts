import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from './index.js';

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
