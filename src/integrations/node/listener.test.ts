/**
 * Streaming a body to a slow reader: every stall waits for `drain` (or the connection's
 * close) and leaves no listener behind, however many times the writer stalls.
 */
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { pipeBody } from './response.js';

const CHUNK = new Uint8Array(256 * 1024); // far over the socket's high-water mark: each write stalls
const CHUNKS = 64;

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe('pipeBody', () => {
  it('leaves no drain or close listener per stall on the response', async () => {
    const most = { close: 0, drain: 0 };
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          most.close = Math.max(most.close, res.listenerCount('close'));
          most.drain = Math.max(most.drain, res.listenerCount('drain'));
          if (sent++ < CHUNKS) controller.enqueue(CHUNK);
          else controller.close();
        },
      });
      void pipeBody(body, res, new AbortController().signal).then(() => res.end());
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const received = await new Promise<number>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: '/' }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
      }).on('error', reject);
    });
    expect(received).toBe(CHUNK.length * CHUNKS);
    expect(most.drain).toBeLessThanOrEqual(1);
    expect(most.close).toBeLessThanOrEqual(3); // node's own plus at most one of ours
  });
});
