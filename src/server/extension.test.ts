import { describe, expect, expectTypeOf, it } from 'vitest';
import { createClient, tasksExtension, type ClientExtension } from '../client/index.js';
import { WireError, type Params } from '../core/index.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { validateWire } from '../testing/wire-tap.js';
import {
  connect,
  createServer,
  defineExtension,
  negotiated,
  skillsExtension,
  type MethodsOf,
  type McpServer,
} from './index.js';

const ECHO_ID = 'com.example/echo';

function echoExtension(offered = { now: true }) {
  return defineExtension({
    id: ECHO_ID,
    settings: () => (offered.now ? { loud: true } : undefined),
    methods: {
      'echo/say': (params: { text?: unknown }, ctx) => {
        if (typeof params.text !== 'string') throw WireError.of('InvalidParams', 'text must be a string');
        return { text: params.text, era: ctx.era, settings: negotiated(ctx, ECHO_ID) ?? null };
      },
    },
    resultMeta: (method) => ({ 'com.example/echo-saw': method }),
  });
}

declare module '../core/index.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the merge adds the members
  interface ExtensionRequestMap extends MethodsOf<ReturnType<typeof echoExtension>> {}
}

async function clientOf(server: McpServer, era: 'modern' | 'legacy', extensions: ClientExtension[] = []) {
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const client = createClient({ name: 'c', version: '1', era, extensions });
  await client.connect(validateWire(a, era === 'modern' ? '2026-07-28' : '2025-11-25'));
  if (era === 'modern') await client.discover(); // a pinned modern era learns capabilities from discover
  return client;
}

const ECHO: ClientExtension[] = [{ id: ECHO_ID, settings: { voice: 'low' } }];

describe.each(['modern', 'legacy'] as const)('an extension on the seam (%s)', (era) => {
  it('is declared in the capabilities with its settings and its method answers a client that negotiated it', async () => {
    const server = createServer({ name: 's', version: '1', extensions: [echoExtension()] });
    server.tool('t', {}, () => 'ok');
    const client = await clientOf(server, era, ECHO);
    expect(client.serverExtension(ECHO_ID)).toEqual({ loud: true });
    const said = await client.request('echo/say', { text: 'hi' });
    expectTypeOf(said.text).toEqualTypeOf<string>();
    expect(said).toMatchObject({ text: 'hi', era, settings: { voice: 'low' } });
  });

  it('answers -32601 to a client that did not negotiate it, and leaves its results alone', async () => {
    const server = createServer({ name: 's', version: '1' }).use(echoExtension());
    server.tool('t', {}, () => 'ok');
    const client = await clientOf(server, era);
    await expect(client.request('echo/say', { text: 'hi' })).rejects.toMatchObject({ code: -32601 });
    const result = await client.callTool('t');
    expect(result._meta?.['com.example/echo-saw']).toBeUndefined();
  });

  it('adds its result _meta only for a client that negotiated it', async () => {
    const server = createServer({ name: 's', version: '1', extensions: [echoExtension()] });
    server.tool('t', {}, () => 'ok');
    const client = await clientOf(server, era, ECHO);
    expect((await client.callTool('t'))._meta?.['com.example/echo-saw']).toBe('tools/call');
  });

  it('is neither declared nor routed while its settings function says it is not offered', async () => {
    const offered = { now: false };
    const server = createServer({ name: 's', version: '1', extensions: [echoExtension(offered)] });
    server.tool('t', {}, () => 'ok');
    const client = await clientOf(server, era, ECHO);
    expect(client.serverExtension(ECHO_ID)).toBeUndefined();
    await expect(client.request('echo/say', { text: 'hi' })).rejects.toMatchObject({ code: -32601 });
  });

  it('hands bad params to the handler, whose -32602 reaches the client', async () => {
    const server = createServer({ name: 's', version: '1', extensions: [echoExtension()] });
    const client = await clientOf(server, era, ECHO);
    await expect(client.request('echo/say', { text: 3 } as Params)).rejects.toMatchObject({ code: -32602 });
  });
});

describe('negotiation per request (modern)', () => {
  it('answers each of two clients on one server by what that client declared', async () => {
    const server = createServer({ name: 's', version: '1', extensions: [echoExtension()] });
    const [withIt, without] = await Promise.all([
      clientOf(server, 'modern', ECHO),
      clientOf(server, 'modern'),
    ]);
    const [a, b] = await Promise.allSettled([
      withIt.request('echo/say', { text: 'a' }),
      without.request('echo/say', { text: 'b' }),
    ]);
    expect(a).toMatchObject({ status: 'fulfilled', value: { text: 'a' } });
    expect(b).toMatchObject({ status: 'rejected', reason: { code: -32601 } });
  });
});

describe('defineExtension', () => {
  it('refuses a malformed identifier and a core method name', () => {
    expect(() => defineExtension({ id: 'echo' })).toThrow(/vendor-prefix/);
    expect(() => defineExtension({ id: ECHO_ID, methods: { 'tools/call': () => ({}) } })).toThrow(
      /core method/,
    );
  });

  it('labels an extension with its SEP-3392 stage, experimental by default, and refuses an unknown stage', () => {
    expect(defineExtension({ id: ECHO_ID }).stage).toBe('experimental');
    expect(defineExtension({ id: ECHO_ID, stage: 'beta' }).stage).toBe('beta');
    expect(defineExtension({ id: ECHO_ID, stage: 'stable' }).stage).toBe('stable');
    // @ts-expect-error -- 'alpha' is not a stage
    expect(() => defineExtension({ id: ECHO_ID, stage: 'alpha' })).toThrow(/stage "alpha"/);
  });

  it('labels the extensions mcpkit ships with their stage (skills and tasks beta)', () => {
    expect(skillsExtension(new Promise<never>(() => undefined)).stage).toBe('beta');
    expect(tasksExtension.stage).toBe('beta');
  });

  it('keeps the stage off the wire: capabilities.extensions carries the settings alone', async () => {
    const server = createServer({ name: 's', version: '1', extensions: [echoExtension()] });
    server.tool('t', {}, () => 'ok');
    const client = await clientOf(server, 'modern', ECHO);
    expect(client.serverExtension(ECHO_ID)).toEqual({ loud: true });
  });

  it('refuses a second extension with the same id or method', () => {
    const server = createServer({ name: 's', version: '1', extensions: [echoExtension()] });
    expect(() => server.use(echoExtension())).toThrow(/already served/);
    const other = defineExtension({ id: 'com.example/other', methods: { 'echo/say': () => ({}) } });
    expect(() => server.use(other)).toThrow(/already served/);
  });
});
