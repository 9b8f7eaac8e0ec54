/**
 * A server that stops answering for a moment after the client connected (an instance of a
 * fleet killed behind a balancer, a restart on the same port): the request in flight fails
 * with a clear error and the client stays connected, so the next request reaches the server
 * again. Found by the chaos run (bench/chaos.ts), where one reset socket used to close a
 * modern client for good.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../integrations/node/index.js';
import { createServer } from '../../server/index.js';
import { createClient } from '../index.js';
import { streamableHttp } from './index.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function start(port = 0): Promise<Served> {
  const server = createServer({ name: 'flaky', version: '1' });
  server.tool('hello', { description: 'says hello' }, () => 'hello');
  served = await serve(server, { port });
  return served;
}

describe.each(['modern', 'legacy'] as const)('%s: a server that goes away after connect', (era) => {
  it('fails only the request in flight, and the next one after the restart succeeds', async () => {
    const first = await start();
    const { port } = new URL(first.url);
    const client = createClient({ name: 't', version: '1', era });
    await client.connect(streamableHttp(first.url));
    expect(await client.callTool('hello', {})).toMatchObject({ content: [{ text: 'hello' }] });

    await first.close();
    served = undefined;
    const error = await client.callTool('hello', {}).catch((e: unknown) => e);
    expect(String((error as Error).message)).toContain(`could not reach ${first.url}`);
    expect((error as { data?: unknown }).data).toMatchObject({ disconnected: true });

    await start(Number(port));
    const again = await client.callTool('hello', {}).catch((e: unknown) => e);
    // A legacy session held in memory died with the process: the client renews it by itself.
    expect(again).toMatchObject({ content: [{ text: 'hello' }] });
    await client.close();
  });
});

describe('a server that was never reached', () => {
  it('still fails connect and leaves the client closed', async () => {
    const client = createClient({ name: 't', version: '1' });
    const error = await client.connect(streamableHttp('http://127.0.0.1:1/mcp')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(client.callTool('hello', {})).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });
});

describe('legacy: an answer to the server that cannot be delivered', () => {
  /** A real server whose tool asks the client; `drop` network-fails that many answer POSTs. */
  async function asking(drop: number) {
    const server = createServer({ name: 'asking', version: '1' });
    server.tool('approve', { description: 'asks first' }, async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'ok?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      });
      return answer.action;
    });
    served = await serve(server, { port: 0 });
    let dropped = 0;
    const flaky: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? init.body : '';
      if (body.includes('"result":{"action"') && dropped < drop) {
        dropped++;
        throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      }
      return fetch(input, init);
    };
    const client = createClient({
      name: 't',
      version: '1',
      era: 'legacy',
      handlers: { elicitation: () => Promise.resolve({ action: 'accept' as const, content: { ok: true } }) },
    });
    await client.connect(streamableHttp(served.url, { fetch: flaky }));
    return { client, dropped: () => dropped };
  }

  it('is posted again after a network failure, and the call completes', async () => {
    const { client, dropped } = await asking(1);
    expect(await client.callTool('approve', {})).toMatchObject({ content: [{ text: 'accept' }] });
    expect(dropped()).toBe(1);
    await client.close();
  });

  it('fails the call it came with, with why, instead of leaving it waiting', async () => {
    const { client } = await asking(Infinity);
    const error = await client.callTool('approve', {}).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(
      /could not deliver the answer to the server's request .*: could not reach .*: ECONNRESET/,
    );
    await client.close();
  });
});
