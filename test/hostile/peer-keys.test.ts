/**
 * Keys chosen by the peer or by a schema arrive as ordinary own keys on both eras: MRTR
 * input request keys, method names, tool and prompt names, completion and prompt argument
 * names, URI-template variables, elicitation content, result and `_meta` keys, header
 * names. Each path is fed `__proto__`, `constructor`, `toString`, … by fast-check.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Peer } from '../../src/core/peer.js';
import type { Params } from '../../src/core/jsonrpc.js';
import { connect, createServer, type McpServer } from '../../src/server/index.js';
import { createHttpHandler } from '../../src/server/http/index.js';
import { runtimeOf } from '../../src/server/runtime.js';
import { createLinkedPair } from '../../src/testing/linked-pair.js';
import { fuzzRuns } from '../support/fuzz.js';
import { expectNoPollution, expectOwn, own, peerKey, tokenKey } from '../support/keys.js';

const CAPS = { elicitation: {}, sampling: {}, roots: {} };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': CAPS,
};
const runs = fuzzRuns(0.3);
const open: Peer[] = [];
afterEach(async () => {
  for (const peer of open.splice(0)) await peer.close();
  expectNoPollution();
});

let nextId = 1;
/** One modern request straight into the server's runtime; resolves with its result. */
async function modern(server: McpServer, method: string, params: Params = {}, caps = CAPS): Promise<Params> {
  const channel = { signal: new AbortController().signal, notify: () => undefined };
  const _meta = { ...META, 'io.modelcontextprotocol/clientCapabilities': caps };
  const request = { jsonrpc: '2.0' as const, id: nextId++, method, params: { ...params, _meta } };
  return runtimeOf(server).handle(request, channel as never) as Promise<Params>;
}

/** A legacy session over the linked pair, initialized, answering elicitations with `answer`. */
async function legacy(server: McpServer, answer: (params: Params) => Params = () => ({})): Promise<Peer> {
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const peer = new Peer(a, { request: async (r) => answer(r.params ?? {}), notification: () => undefined });
  open.push(peer);
  await peer.start();
  const init = { protocolVersion: '2025-11-25', capabilities: CAPS, clientInfo: { name: 'c', version: '1' } };
  await peer.request('initialize', init);
  peer.notify('notifications/initialized', {});
  return peer;
}

function askingServer(): McpServer {
  const server = createServer({ name: 's', version: '1' });
  server.tool('ask', {}, async (args, ctx) => {
    const { key, field } = args as { key: string; field: string };
    const properties = own(field, { type: 'string' as const });
    const answer = await ctx.elicit(
      { message: 'q', requestedSchema: { type: 'object', properties } },
      { key },
    );
    expectOwn(answer.content, field);
    return `handler got: ${JSON.stringify(answer.content)}`;
  });
  return server;
}

describe('regressions', () => {
  it.each(['constructor', 'toString', '__proto__'])(
    "ctx.elicit with key '%s' asks the client instead of finding a built-in",
    async (key) => {
      const server = askingServer();
      const first = await modern(server, 'tools/call', { name: 'ask', arguments: { key, field: 'x' } });
      expect(first.resultType).toBe('input_required');
      expectOwn(first.inputRequests, key);
      expect(Object.keys(first.inputRequests as object)).toEqual([key]);
      const inputResponses = own(key, { action: 'accept', content: { x: 'Ada' } });
      const retry = {
        name: 'ask',
        arguments: { key, field: 'x' },
        inputResponses,
        requestState: first.requestState,
      };
      const done = await modern(server, 'tools/call', retry);
      expect(done.content).toEqual([{ type: 'text', text: 'handler got: {"x":"Ada"}' }]);
    },
  );

  it("a legacy request for method 'constructor' is -32601, not the session's state", async () => {
    const peer = await legacy(createServer({ name: 's', version: '1' }));
    for (const method of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])
      await expect(peer.request(method, {})).rejects.toMatchObject({ code: -32601 });
  });
});

describe('own keys on the server, fed by fast-check', () => {
  it('MRTR: an input request key and an elicitation content field, round trip', async () => {
    const server = askingServer();
    await fc.assert(
      fc.asyncProperty(peerKey, peerKey, async (key, field) => {
        const args = { key, field };
        const first = await modern(server, 'tools/call', { name: 'ask', arguments: args });
        expectOwn(first.inputRequests, key);
        const content = own(field, 'v');
        const inputResponses = own(key, { action: 'accept', content });
        const params = { name: 'ask', arguments: args, inputResponses, requestState: first.requestState };
        const done = await modern(server, 'tools/call', params);
        expect(done.isError).toBeUndefined();
        expect(done.content).toEqual([{ type: 'text', text: `handler got: ${JSON.stringify(content)}` }]);
      }),
      runs,
    );
  });

  it('tasks: an input request key answered through tasks/update', async () => {
    const server = createServer({ name: 's', version: '1', tasks: { pollIntervalMs: 10 } });
    server.tool('ask', { task: 'optional' }, async (args, ctx) => {
      const key = (args as { key: string }).key;
      const answer = await ctx.elicit(
        { message: 'q', requestedSchema: { type: 'object', properties: {} } },
        { key },
      );
      return `handler got: ${JSON.stringify(answer.content)}`;
    });
    const caps = { ...CAPS, extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const task = (method: string, params: Params) => modern(server, method, params, caps);
    await fc.assert(
      fc.asyncProperty(peerKey, async (key) => {
        const { taskId } = await task('tools/call', { name: 'ask', arguments: { key } });
        let waiting: Params = {};
        await vi.waitFor(async () => {
          waiting = await task('tasks/get', { taskId });
          expect(waiting.status).toBe('input_required');
        });
        expectOwn(waiting.inputRequests, key);
        const inputResponses = own(key, { action: 'accept', content: { a: 1 } });
        await task('tasks/update', { taskId, inputResponses });
        await vi.waitFor(async () => {
          const done = await task('tasks/get', { taskId });
          expect(done.result).toMatchObject({ content: [{ text: 'handler got: {"a":1}' }] });
        });
      }),
      fuzzRuns(0.15),
    );
  });

  it('method names are unknown (-32601) on both eras', async () => {
    const server = createServer({ name: 's', version: '1' });
    const peer = await legacy(server);
    await fc.assert(
      fc.asyncProperty(peerKey, async (method) => {
        await expect(peer.request(method, {})).rejects.toMatchObject({ code: expect.any(Number) });
        await expect(modern(server, method)).rejects.toMatchObject({ code: expect.any(Number) });
        const error = await peer.request(method, {}).catch((e: { code: number }) => e.code);
        expect([-32601, -32600]).toContain(error);
      }),
      runs,
    );
  });

  it('tools, prompts, completions and prompt arguments by name, on both eras', async () => {
    await fc.assert(
      fc.asyncProperty(tokenKey, peerKey, peerKey, async (name, argument, other) => {
        fc.pre(argument !== other);
        const server = createServer({ name: 's', version: '1' });
        server.tool(name, {}, () => `tool ${name}`);
        const complete = own(argument, () => ['done']);
        server.prompt(name, { arguments: [{ name: argument, required: true }], complete }, (args) => {
          expectOwn(args, argument, 'v');
          return [{ role: 'user', content: { type: 'text', text: 'hi' } }];
        });
        const peer = await legacy(server);
        const ask = (method: string, params: Params) =>
          Promise.all([modern(server, method, params), peer.request(method, params)]);
        for (const result of await ask('tools/call', { name }))
          expect(result.content).toEqual([{ type: 'text', text: `tool ${name}` }]);
        await ask('prompts/get', { name, arguments: own(argument, 'v') });
        const ref = { type: 'ref/prompt', name };
        for (const r of await ask('completion/complete', { ref, argument: { name: argument, value: '' } }))
          expect((r.completion as { values: string[] }).values).toEqual(['done']);
        for (const r of await ask('completion/complete', { ref, argument: { name: other, value: '' } }))
          expect((r.completion as { values: string[] }).values).toEqual([]);
        const unknown = `${name}-unknown`;
        await expect(modern(server, 'tools/call', { name: unknown })).rejects.toMatchObject({ code: -32602 });
        await peer.close();
      }),
      fuzzRuns(0.15),
    );
  });

  it('URI-template variables and result and _meta keys, on both eras', async () => {
    await fc.assert(
      fc.asyncProperty(tokenKey, peerKey, async (variable, key) => {
        const server = createServer({ name: 's', version: '1' });
        server.resourceTemplate(`x://{${variable}}/y`, { name: 't' }, (uri, variables) => {
          expectOwn(variables, variable, 'v');
          return { contents: [{ uri: uri, text: 'ok' }] };
        });
        server.tool('meta', {}, () =>
          JSON.parse(JSON.stringify({ content: [], _meta: own(key, 1), ...own(key, 2) })),
        );
        const peer = await legacy(server);
        for (const read of [
          modern(server, 'resources/read', { uri: 'x://v/y' }),
          peer.request('resources/read', { uri: 'x://v/y' }),
        ])
          expect(((await read).contents as { text: string }[])[0]?.text).toBe('ok');
        for (const result of [
          await modern(server, 'tools/call', { name: 'meta' }),
          await peer.request('tools/call', { name: 'meta' }),
        ]) {
          expectOwn(result._meta, key, 1);
          if (key !== '_meta' && key !== 'content') expectOwn(result, key, 2);
        }
        await peer.close();
      }),
      fuzzRuns(0.15),
    );
  });

  it('header names reach middleware as own keys of ctx.headers', async () => {
    const server = createServer({ name: 's', version: '1' });
    let seen: Readonly<Record<string, string>> | undefined;
    server.use((next) => (message, ctx) => ((seen = ctx.headers), next(message, ctx)));
    const handler = createHttpHandler(server);
    await fc.assert(
      fc.asyncProperty(tokenKey, async (header) => {
        fc.pre(
          !['accept', 'content-type', 'mcp-protocol-version', 'mcp-method', 'host'].includes(
            header.toLowerCase(),
          ),
        );
        const body = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } };
        const headers = new Headers([
          ['accept', 'application/json, text/event-stream'],
          ['content-type', 'application/json'],
          ['mcp-protocol-version', '2026-07-28'],
          ['mcp-method', 'server/discover'],
          [header, 'v'],
        ]);
        const request = new Request('http://localhost/mcp', {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
        });
        expect((await handler(request)).status).toBe(200);
        expectOwn(seen, header.toLowerCase(), 'v');
      }),
      runs,
    );
    await handler.close();
  });
});
