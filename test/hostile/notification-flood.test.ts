/**
 * A client flooding a server with notifications (cancellations of unknown requests, roots
 * list_changed, unknown methods) over a stdio pipe: the server keeps answering requests
 * mixed into the flood, without stalling its event loop.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { stdioServerTransport } from '../../src/integrations/stdio/index.js';
import { connect, createServer } from '../../src/server/index.js';
import { modernBody } from '../support/http-harness.js';
import { until } from '../support/wait.js';
import { bounded } from '../support/watchdog.js';

const NOTIFICATIONS = 200_000;

describe('a notification flood does not starve the server', () => {
  it('200 000 notifications with requests mixed in: every request is answered, the loop never stalls', async () => {
    const server = createServer({ name: 'flooded', version: '1' });
    server.tool('echo', { inputSchema: { type: 'object' } }, (args) => String(args.text));
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const replies = new Map<number, unknown>();
    let buffered = '';
    stdout.on('data', (chunk: Buffer) => {
      const lines = (buffered + chunk.toString('utf8')).split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const message = JSON.parse(line) as { id?: number };
        if (typeof message.id === 'number') replies.set(message.id, message);
      }
    });
    await connect(server, stdioServerTransport({ stdin, stdout, progressGapMs: 0 }));
    const kinds = [
      (i: number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: i } }),
      () => ({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }),
      (i: number) => ({ jsonrpc: '2.0', method: 'notifications/whatever', params: { i } }),
    ];
    const requests: number[] = [];
    const { maxStallMs } = await bounded({ withinMs: 30_000 }, async () => {
      let chunk = '';
      for (let i = 0; i < NOTIFICATIONS; i++) {
        chunk += `${JSON.stringify(kinds[i % 3]!(i))}\n`;
        if (i % 10_000 === 0) {
          const id = 1_000_000 + i;
          requests.push(id);
          chunk += `${JSON.stringify(modernBody('tools/call', { name: 'echo', arguments: { text: `r${i}` } }, id))}\n`;
        }
        if (chunk.length > 256 * 1024) {
          if (!stdin.write(chunk)) await new Promise((resolve) => stdin.once('drain', resolve));
          chunk = '';
        }
      }
      stdin.write(chunk);
      await until(() => requests.every((id) => replies.has(id)), 25_000);
    });
    expect(requests).toHaveLength(NOTIFICATIONS / 10_000);
    for (const id of requests)
      expect(replies.get(id)).toMatchObject({ result: { content: [{ text: `r${id - 1_000_000}` }] } });
    expect(maxStallMs).toBeLessThan(1000);
    stdin.end();
  });
});
