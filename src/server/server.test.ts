import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WireError } from '../core/errors.js';
import { Peer, type PeerHandlers } from '../core/peer.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { validateWire } from '../testing/wire-tap.js';
import { connect, createServer } from './index.js';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

function buildServer() {
  const server = createServer({ name: 'test-server', version: '1.2.3', instructions: 'be nice' });
  server.tool(
    'echo',
    { description: 'Echo', inputSchema: z.object({ text: z.string() }) },
    ({ text }) => text,
  );
  server.tool(
    'weather',
    {
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      outputSchema: z.object({ temperature: z.number() }),
    },
    () => ({ content: [{ type: 'text', text: '21' }], structuredContent: { temperature: 21 } }),
  );
  // The types refuse this result; the runtime check must still catch handlers that lie.
  // @ts-expect-error structuredContent must match outputSchema
  server.tool('broken-output', { outputSchema: z.object({ n: z.number() }) }, () => ({
    content: [],
    structuredContent: { n: 'x' },
  }));
  server.tool('crash', {}, () => {
    throw new Error('database exploded');
  });
  server.tool('progress', {}, async (_args, ctx) => {
    ctx.progress(1, { total: 2 });
    ctx.progress(2, { total: 2 });
    ctx.log('debug', 'noise');
    ctx.log('error', 'bad thing');
    return 'done';
  });
  server.resource('test://a', { mimeType: 'text/plain' }, (uri) => [{ uri, text: 'A' }]);
  server.resourceTemplate(
    'test://items/{id}',
    { complete: { id: (v) => ['one', 'two'].filter((x) => x.startsWith(v)) } },
    (uri, vars) => [{ uri, text: `item ${vars.id}` }],
  );
  server.prompt('greet', { argsSchema: z.object({ name: z.string() }) }, ({ name }) => [
    { role: 'user', content: { type: 'text', text: `Hello ${name}` } },
  ]);
  return server;
}

type Client = { peer: Peer; violations: string[]; notifications: unknown[]; close: () => Promise<void> };
const open: Client[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function start(
  revision: '2026-07-28' | '2025-11-25',
  handlers: { request?: PeerHandlers['request'] } = {},
): Promise<Client> {
  const [a, b] = createLinkedPair();
  await connect(buildServer(), b);
  const tapped = validateWire(a, revision);
  const notifications: unknown[] = [];
  const peer = new Peer(tapped, {
    request: async () => {
      throw WireError.of('MethodNotFound', 'no');
    },
    notification: (n) => notifications.push(n),
    ...handlers,
  });
  await peer.start();
  const client = { peer, violations: tapped.violations, notifications, close: () => peer.close() };
  open.push(client);
  return client;
}

const modern = (c: Client, method: string, params: Record<string, unknown> = {}) =>
  c.peer.request(method, { ...params, _meta: { ...MODERN_META, ...(params._meta as object) } });

describe('modern requests', () => {
  it('server/discover names versions, capabilities, identity and cache hints', async () => {
    const c = await start('2026-07-28');
    const result = await modern(c, 'server/discover');
    expect(result.supportedVersions).toEqual([
      '2026-07-28',
      '2025-11-25',
      '2025-06-18',
      '2025-03-26',
      '2024-11-05',
    ]);
    expect(result.capabilities).toMatchObject({
      tools: {},
      resources: {},
      prompts: {},
      completions: {},
      logging: {},
    });
    expect(result).toMatchObject({
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      instructions: 'be nice',
    });
    expect(result._meta).toEqual({
      'io.modelcontextprotocol/serverInfo': { name: 'test-server', version: '1.2.3' },
    });
    expect(c.violations).toEqual([]);
  });

  it('rejects a request without _meta with -32602', async () => {
    const c = await start('2026-07-28');
    await expect(c.peer.request('tools/list', {})).rejects.toMatchObject({ code: -32602 });
  });

  it('rejects an unknown version with -32022 naming supported and requested', async () => {
    const c = await start('2026-07-28');
    const meta = { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '1900-01-01' };
    const error = await c.peer.request('tools/list', { _meta: meta }).catch((e: WireError) => e);
    expect(error).toMatchObject({ code: -32022, data: { requested: '1900-01-01' } });
    expect((error as WireError).data).toHaveProperty('supported', expect.arrayContaining(['2026-07-28']));
  });

  it('rejects missing client capabilities with -32602', async () => {
    const c = await start('2026-07-28');
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
    await expect(c.peer.request('tools/list', { _meta: meta })).rejects.toMatchObject({ code: -32602 });
  });

  it('answers legacy-only and unknown methods with -32601', async () => {
    const c = await start('2026-07-28');
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'nope/nope']) {
      await expect(modern(c, method)).rejects.toMatchObject({ code: -32601 });
    }
  });

  it('lists tools with schemas in registration order and cache hints', async () => {
    const c = await start('2026-07-28');
    const result = await modern(c, 'tools/list');
    expect((result.tools as { name: string }[]).map((t) => t.name)).toEqual([
      'echo',
      'weather',
      'broken-output',
      'crash',
      'progress',
    ]);
    expect((result.tools as { inputSchema: object }[])[0]?.inputSchema).toMatchObject({
      type: 'object',
      required: ['text'],
    });
    expect(result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect(c.violations).toEqual([]);
  });

  it('calls a tool and validates its arguments as a tool error the model can read', async () => {
    const c = await start('2026-07-28');
    expect(await modern(c, 'tools/call', { name: 'echo', arguments: { text: 'hi' } })).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'hi' }],
    });
    const bad = await modern(c, 'tools/call', { name: 'echo', arguments: { text: 5 } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('text');
    await expect(modern(c, 'tools/call', { name: 'missing' })).rejects.toMatchObject({ code: -32602 });
    await expect(modern(c, 'tools/call', { name: 'echo', arguments: [1] })).rejects.toMatchObject({
      code: -32602,
    });
    expect(c.violations).toEqual([]);
  });

  it('checks structuredContent against outputSchema', async () => {
    const c = await start('2026-07-28');
    const ok = await modern(c, 'tools/call', { name: 'weather', arguments: { city: 'Paris' } });
    expect(ok.structuredContent).toEqual({ temperature: 21 });
    await expect(modern(c, 'tools/call', { name: 'broken-output' })).rejects.toMatchObject({ code: -32603 });
  });

  it('turns a crashing tool into an error result', async () => {
    const c = await start('2026-07-28');
    const result = await modern(c, 'tools/call', { name: 'crash' });
    expect(result).toMatchObject({ isError: true });
  });

  it('sends progress only with a token and logs only at the requested level', async () => {
    const c = await start('2026-07-28');
    const seen: unknown[] = [];
    await c.peer.request(
      'tools/call',
      { name: 'progress', _meta: { ...MODERN_META, 'io.modelcontextprotocol/logLevel': 'warning' } },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(seen).toEqual([1, 2]);
    const logs = c.notifications.filter((n) => (n as { method: string }).method === 'notifications/message');
    expect(logs).toHaveLength(1);
    c.notifications.length = 0;
    await modern(c, 'tools/call', { name: 'progress' });
    expect(c.notifications).toEqual([]);
    expect(c.violations).toEqual([]);
  });

  it('reads resources and templates, percent-decoding variables', async () => {
    const c = await start('2026-07-28');
    expect(await modern(c, 'resources/read', { uri: 'test://a' })).toMatchObject({
      contents: [{ text: 'A' }],
      ttlMs: 0,
    });
    const item = await modern(c, 'resources/read', { uri: 'test://items/hello%20world' });
    expect(item.contents).toEqual([{ uri: 'test://items/hello%20world', text: 'item hello world' }]);
    await expect(modern(c, 'resources/read', { uri: 'test://nope' })).rejects.toMatchObject({
      code: -32602,
      data: { uri: 'test://nope' },
    });
    expect(c.violations).toEqual([]);
  });

  it('completes template variables and checks prompt arguments', async () => {
    const c = await start('2026-07-28');
    const done = await modern(c, 'completion/complete', {
      ref: { type: 'ref/resource', uri: 'test://items/{id}' },
      argument: { name: 'id', value: 'o' },
    });
    expect(done.completion).toMatchObject({ values: ['one'] });
    expect(await modern(c, 'prompts/get', { name: 'greet', arguments: { name: 'Ada' } })).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }],
    });
    await expect(modern(c, 'prompts/get', { name: 'greet', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    expect(c.violations).toEqual([]);
  });

  it('rejects a bogus cursor with -32602', async () => {
    const c = await start('2026-07-28');
    await expect(modern(c, 'tools/list', { cursor: 'garbage!' })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('legacy sessions', () => {
  const init = (c: Client, version = '2025-11-25') =>
    c.peer.request('initialize', {
      protocolVersion: version,
      capabilities: { sampling: {} },
      clientInfo: { name: 'c', version: '1' },
    });

  it('negotiates the version and serves features without resultType', async () => {
    const c = await start('2025-11-25');
    const result = await init(c);
    expect(result).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'test-server' },
      instructions: 'be nice',
    });
    c.peer.notify('notifications/initialized');
    const list = await c.peer.request('tools/list', {});
    expect(list).not.toHaveProperty('resultType');
    expect(await c.peer.request('ping', {})).toEqual({});
    expect(await c.peer.request('logging/setLevel', { level: 'error' })).toEqual({});
    expect(c.violations).toEqual([]);
  });

  it('answers an unknown requested version with the newest it speaks', async () => {
    const c = await start('2025-11-25');
    expect((await init(c, '2099-01-01')).protocolVersion).toBe('2025-11-25');
  });

  it('refuses a second initialize on the same connection', async () => {
    const c = await start('2025-11-25');
    await init(c);
    await expect(init(c)).rejects.toMatchObject({ code: -32600 });
  });

  it('uses -32002 for a missing resource', async () => {
    const c = await start('2025-11-25');
    await init(c);
    await expect(c.peer.request('resources/read', { uri: 'test://none' })).rejects.toMatchObject({
      code: -32002,
    });
  });

  it('sends list_changed and resources/updated to initialized sessions', async () => {
    const [a, b] = createLinkedPair();
    const server = buildServer();
    await connect(server, b);
    const got: string[] = [];
    const peer = new Peer(a, { request: async () => ({}), notification: (n) => got.push(n.method) });
    await peer.start();
    await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    peer.notify('notifications/initialized');
    await peer.request('resources/subscribe', { uri: 'test://a' });
    server.notifyToolsChanged();
    server.notifyResourceUpdated('test://a');
    server.notifyResourceUpdated('test://other');
    await peer.request('ping', {});
    expect(got).toEqual(['notifications/tools/list_changed', 'notifications/resources/updated']);
    await peer.close();
  });
});

describe('subscriptions/listen', () => {
  it('acknowledges first, tags every notification, and sends only opted-in types', async () => {
    const [a, b] = createLinkedPair();
    const server = buildServer();
    await connect(server, b);
    const tapped = validateWire(a, '2026-07-28');
    const got: { method: string; params?: Record<string, unknown> }[] = [];
    const peer = new Peer(tapped, { request: async () => ({}), notification: (n) => got.push(n) });
    await peer.start();
    const toolsListen = peer.request('subscriptions/listen', {
      _meta: MODERN_META,
      notifications: { toolsListChanged: true },
    });
    const promptsListen = peer.request('subscriptions/listen', {
      _meta: MODERN_META,
      notifications: { promptsListChanged: true, resourceSubscriptions: ['test://a'] },
    });
    await peer.request('tools/list', { _meta: MODERN_META });
    server.notifyToolsChanged();
    server.notifyResourceUpdated('test://a');
    await peer.request('tools/list', { _meta: MODERN_META });
    const sub = (n: (typeof got)[number]) =>
      (n.params?._meta as Record<string, unknown>)['io.modelcontextprotocol/subscriptionId'];
    expect(got.map((n) => [n.method, sub(n)])).toEqual([
      ['notifications/subscriptions/acknowledged', 0],
      ['notifications/subscriptions/acknowledged', 1],
      ['notifications/tools/list_changed', 0],
      ['notifications/resources/updated', 1],
    ]);
    expect(got[1]?.params?.notifications).toEqual({
      promptsListChanged: true,
      resourceSubscriptions: ['test://a'],
    });
    server.closeSubscriptions();
    expect(await toolsListen).toMatchObject({
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/subscriptionId': 0 },
    });
    await promptsListen;
    expect(tapped.violations).toEqual([]);
    await peer.close();
  });

  it('stops delivering once the client cancels the listen request', async () => {
    const [a, b] = createLinkedPair();
    const server = buildServer();
    await connect(server, b);
    const got: string[] = [];
    const peer = new Peer(a, { request: async () => ({}), notification: (n) => got.push(n.method) });
    await peer.start();
    const abort = new AbortController();
    const listening = peer.request(
      'subscriptions/listen',
      { _meta: MODERN_META, notifications: { toolsListChanged: true } },
      { signal: abort.signal },
    );
    await peer.request('tools/list', { _meta: MODERN_META });
    abort.abort();
    await expect(listening).rejects.toMatchObject({ code: 'ABORTED' });
    await peer.request('tools/list', { _meta: MODERN_META });
    server.notifyToolsChanged();
    await peer.request('tools/list', { _meta: MODERN_META });
    expect(got).toEqual(['notifications/subscriptions/acknowledged']);
    await peer.close();
  });
});

describe('error messages for malformed names', () => {
  it('says that tools/call and prompts/get need a string name', async () => {
    const c = await start('2026-07-28');
    await expect(modern(c, 'tools/call', {})).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('tool name as a string'),
    });
    await expect(modern(c, 'prompts/get', { name: 5 })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('prompt name as a string'),
    });
  });
});
