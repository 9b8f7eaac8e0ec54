import { afterEach, describe, expect, it } from 'vitest';
import type { LocalError } from '../../core/errors.js';
import { createHttpHandler } from '../../server/http/index.js';
import { createServer } from '../../server/index.js';
import { createClient } from '../index.js';
import { streamableHttp } from './index.js';
import { until } from '../../../test/support/wait.js';

/**
 * A real modern server behind a fetch that can cut the open `subscriptions/listen`
 * streams, the way a proxy timeout or a server restart does: the stream ends without the
 * listen request's completion result.
 */
function cuttableServer() {
  const server = createServer({ name: 'cuttable', version: '1' });
  server.tool('t', { description: 't' }, () => 'ok');
  const handler = createHttpHandler(server);
  const open = new Set<() => void>();
  let listens = 0;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const isListen =
      request.method === 'POST' && (await request.clone().text()).includes('"subscriptions/listen"');
    const response = await handler(request);
    if (!isListen || !response.body) return response;
    listens++;
    return new Response(cuttable(response.body, open), {
      status: response.status,
      headers: response.headers,
    });
  };
  const cut = (): void => {
    for (const end of [...open]) end();
  };
  return { server, handler, fetch: fetch as typeof globalThis.fetch, cut, listens: () => listens };
}

/** Passes `body` through until the returned stream's cut function (added to `open`) ends it. */
function cuttable(body: ReadableStream<Uint8Array>, open: Set<() => void>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let end: () => void = () => undefined;
  return new ReadableStream({
    start(controller) {
      end = () => {
        open.delete(end);
        void reader.cancel().catch(() => undefined);
        controller.close();
      };
      open.add(end);
    },
    async pull(controller) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (!open.has(end)) return;
      if (done) {
        open.delete(end);
        controller.close();
      } else controller.enqueue(value);
    },
    cancel: () => reader.cancel(),
  });
}

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function connected() {
  const s = cuttableServer();
  const client = createClient({ name: 'c', version: '1', era: 'modern' });
  await client.connect(streamableHttp('http://127.0.0.1:1/mcp', { fetch: s.fetch }));
  closers.push(
    () => client.close(),
    () => s.handler.close(),
  );
  return { ...s, client };
}

describe('a modern subscriptions/listen stream the server closed without a completion result', () => {
  it('is listened to again with reconnect, and notifications flow on the new stream', async () => {
    const { client, server, cut, listens } = await connected();
    const sub = client.listen({ toolsListChanged: true }, { reconnect: true });
    await sub.acknowledged;
    cut();
    await until(() => listens() === 2);
    const next = sub[Symbol.asyncIterator]().next();
    // The new stream is acknowledged before notifications reach it: keep announcing until one arrives.
    const announcing = setInterval(() => server.notifyToolsChanged(), 20);
    const { value } = await next.finally(() => clearInterval(announcing));
    expect(value?.method).toBe('notifications/tools/list_changed');
    sub.close();
  });

  it('ends the iteration with CONNECTION_CLOSED saying so, without reconnect', async () => {
    const { client, cut } = await connected();
    const sub = client.listen({ toolsListChanged: true });
    await sub.acknowledged;
    cut();
    const error = (await sub[Symbol.asyncIterator]()
      .next()
      .catch((e: unknown) => e)) as LocalError;
    expect(error.code).toBe('CONNECTION_CLOSED');
    expect(error.message).toMatch(/closed the subscription without a completion result/);
    expect((await client.callTool('t', {})).content).toEqual([{ type: 'text', text: 'ok' }]);
  });
});
