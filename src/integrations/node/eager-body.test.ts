import { createServer as createNodeServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer, modernPost } from '../../../test/support/http-harness.js';
import { until } from '../../../test/support/wait.js';
import { toNodeListener } from './listener.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A node server over the endpoint adapter; `seen` collects its requests. */
async function start(seen: IncomingMessage[] = []): Promise<number> {
  const listener = toNodeListener(buildServer(), { keepAliveMs: 0, maxBodyBytes: 1000 });
  const server = createNodeServer((req, res) => {
    seen.push(req);
    listener(req, res);
  });
  server.on('close', () => listener.close());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Request head of a modern `tools/call` to echo, declaring `length` body bytes. */
function head(length: number, extra = ''): string {
  return (
    'POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
    'accept: application/json, text/event-stream\r\nmcp-protocol-version: 2026-07-28\r\n' +
    `mcp-method: tools/call\r\nmcp-name: echo\r\n${extra}content-length: ${length}\r\n\r\n`
  );
}

/** Opens a raw connection; `status()` resolves with the first response's status code. */
async function raw(port: number): Promise<{ socket: Socket; status: Promise<number> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const status = new Promise<number>((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const line = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (line) resolve(Number(line[1]));
    });
  });
  return { socket, status };
}

async function echoStatus(port: number): Promise<number> {
  const request = modernPost('tools/call', { name: 'echo', arguments: { text: 'hi' } });
  const url = `http://127.0.0.1:${port}/mcp`;
  const response = await fetch(url, { method: 'POST', headers: request.headers, body: await request.text() });
  await response.arrayBuffer();
  return response.status;
}

describe('node adapter request bodies', () => {
  it('answers 413 to a declared Content-Length over maxBodyBytes before the body is sent', async () => {
    const port = await start();
    const { socket, status } = await raw(port);
    socket.write(head(1_000_000)); // the head only: the 413 must not wait for the body
    expect(await status).toBe(413);
    socket.destroy();
    expect(await echoStatus(port)).toBe(200);
  });

  it('stops keeping the body of a request refused before it was needed, and drains it', async () => {
    const seen: IncomingMessage[] = [];
    const port = await start(seen);
    const { socket, status } = await raw(port);
    // A foreign Origin is refused (403) before the body is read; the body is under 4 MiB.
    socket.write(head(600_000, 'origin: http://evil.example.com\r\n'));
    socket.write(Buffer.alloc(1000, 0x20));
    expect(await status).toBe(403);
    const [req] = seen;
    expect(req!.listenerCount('data')).toBe(0); // nothing collects the rest
    socket.write(Buffer.alloc(599_000, 0x20));
    await until(() => req!.complete); // drained, not left paused
    socket.destroy();
    expect(await echoStatus(port)).toBe(200);
  });
});
