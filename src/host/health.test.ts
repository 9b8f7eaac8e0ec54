/**
 * Backend health: an HTTP server that goes away is noticed without a call — a legacy one by
 * the health probe (`ping`), a modern one by its listen stream closing — and reconnected
 * with backoff once it is back; a first connection that fails is retried too, up to a cap.
 * No fixed sleeps: every wait is for a status event.
 */
import { createServer as createNetServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Served } from '../integrations/node/index.js';
import { createServer, type McpServer } from '../server/index.js';
import { createHost, type Host, type ServerStatus } from './index.js';

function backend(eras: ('modern' | 'legacy')[]): McpServer {
  const server = createServer({ name: 'b', version: '1.0.0', eras });
  server.tool('hello', {}, () => 'hello');
  return server;
}

/** A loopback port nothing listens on (yet). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Resolves with the first status of `name` that `check` accepts (now or on a later event). */
function statusOf(host: Host, name: string, check: (s: ServerStatus) => boolean): Promise<ServerStatus> {
  return new Promise((resolve) => {
    const now = host.status().find((s) => s.name === name);
    if (now && check(now)) return resolve(now);
    const off = host.on('status', (s) => {
      if (s.name !== name || !check(s)) return;
      off();
      resolve(s);
    });
  });
}

describe('backend health', () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of opened.splice(0).reverse()) await o.close();
  });

  async function serveOn(server: McpServer, port: number): Promise<Served> {
    const served = await serve(server, { port });
    opened.push(served);
    return served;
  }

  it('notices a legacy HTTP server that stopped answering by its health probe, and reconnects', async () => {
    const server = backend(['legacy']);
    // A hung server: the connection stays up, pings get no answer (only a probe can tell).
    let hung = false;
    server.use(
      (next) => (message, ctx) =>
        hung && message.method === 'ping' ? new Promise(() => {}) : next(message, ctx),
    );
    const served = await serveOn(server, 0);
    const host = createHost({
      servers: { b: { url: served.url, era: 'legacy' } },
      health: { intervalMs: 100, timeoutMs: 100 },
      reconnect: { baseMs: 20, maxMs: 100, maxAttempts: 100 },
    });
    opened.push(host);
    await host.start();
    expect(host.status()[0]?.state).toBe('ready');
    const lost = statusOf(host, 'b', (s) => s.state === 'reconnecting');
    hung = true;
    expect(await lost).toMatchObject({ reason: expect.stringMatching(/health check failed/) });
    hung = false;
    await statusOf(host, 'b', (s) => s.state === 'ready');
    expect((await host.callTool('b__hello')).content).toEqual([{ type: 'text', text: 'hello' }]);
  });

  it('notices a legacy HTTP server that went away, and reconnects when it is back', async () => {
    const port = await freePort();
    const first = await serveOn(backend(['legacy']), port);
    const host = createHost({
      servers: { b: { url: first.url, era: 'legacy' } },
      health: { intervalMs: 100, timeoutMs: 100 },
      reconnect: { baseMs: 20, maxMs: 100, maxAttempts: 100 },
    });
    opened.push(host);
    await host.start();
    const lost = statusOf(host, 'b', (s) => s.state === 'reconnecting');
    await first.close();
    expect((await lost).reason).toBeDefined();
    await serveOn(backend(['legacy']), port);
    await statusOf(host, 'b', (s) => s.state === 'ready');
    expect((await host.callTool('b__hello')).content).toEqual([{ type: 'text', text: 'hello' }]);
  });

  it('notices a modern HTTP server that went away by its listen stream closing, without probes', async () => {
    const port = await freePort();
    const first = await serveOn(backend(['modern']), port);
    const host = createHost({
      servers: { b: { url: first.url } },
      health: { intervalMs: 0 },
      reconnect: { baseMs: 20, maxMs: 100, maxAttempts: 100 },
    });
    opened.push(host);
    await host.start();
    expect(host.status()[0]).toMatchObject({ state: 'ready', era: 'modern' });
    const lost = statusOf(host, 'b', (s) => s.state === 'reconnecting');
    await first.close();
    expect((await lost).reason).toBeDefined();
    await serveOn(backend(['modern']), port);
    await statusOf(host, 'b', (s) => s.state === 'ready');
    expect((await host.callTool('b__hello')).content).toEqual([{ type: 'text', text: 'hello' }]);
  });

  it('retries a failed first connection with backoff, reporting why, and connects once the server is up', async () => {
    const port = await freePort();
    const host = createHost({
      servers: { b: { url: `http://127.0.0.1:${port}/mcp` } },
      reconnect: { baseMs: 20, maxMs: 100, firstConnectAttempts: 1000 },
    });
    opened.push(host);
    await host.start();
    expect(host.status()[0]).toMatchObject({ state: 'reconnecting', reason: expect.any(String) });
    await statusOf(host, 'b', (s) => s.attempts >= 3);
    await serveOn(backend(['modern', 'legacy']), port);
    await statusOf(host, 'b', (s) => s.state === 'ready');
    expect((await host.callTool('b__hello')).content).toEqual([{ type: 'text', text: 'hello' }]);
  });

  it('gives up on a first connection after firstConnectAttempts', async () => {
    const port = await freePort();
    const host = createHost({
      servers: { b: { url: `http://127.0.0.1:${port}/mcp` } },
      reconnect: { baseMs: 5, maxMs: 10, firstConnectAttempts: 3 },
    });
    opened.push(host);
    await host.start();
    expect(await statusOf(host, 'b', (s) => s.state === 'failed')).toMatchObject({
      attempts: 3,
      reason: expect.any(String),
    });
  });
});
