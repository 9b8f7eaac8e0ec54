import { describe, expect, it } from 'vitest';
import { runtimeOf } from './runtime.js';
import { createStateSealer, generateStateKey } from '../core/request-state.js';
import type { Params } from '../core/jsonrpc.js';
import { assertWireValid } from '../testing/wire-schema.js';
import type { ScopeBinding, ScopeLine } from './scope.js';
type RequestChannel = ScopeLine & ScopeBinding;
import { createServer, inputRequired, type ServerOptions } from './index.js';

const caps = { elicitation: {}, sampling: {}, roots: {} };
const meta = (capabilities: object = caps) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

function build(options: Partial<ServerOptions> = {}) {
  const server = createServer({ name: 's', version: '1', ...options });
  server.tool('interview', {}, async (_args, ctx) => {
    const first = await ctx.elicit({
      mode: 'form',
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    const second = await ctx.elicit({
      mode: 'form',
      message: 'Colour?',
      requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } },
    });
    const model = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
      maxTokens: 10,
    });
    return `${String(first.content?.name)} likes ${String(second.content?.colour)}; model said ${JSON.stringify(model.content)}`;
  });
  server.tool('all-at-once', {}, async (_args, ctx) => {
    const [e, s, r] = await Promise.all([
      ctx.elicit(
        { mode: 'form', message: 'x', requestedSchema: { type: 'object', properties: {} } },
        { key: 'user' },
      ),
      ctx.sample({ messages: [], maxTokens: 5 }, { key: 'model' }),
      ctx.listRoots({ key: 'roots' }),
    ]);
    return `${e.action} ${s.role} ${r.roots.length}`;
  });
  server.tool('explicit', {}, () => inputRequired({ ask: { method: 'roots/list', params: {} } }));
  return server;
}

let nextId = 1;
async function call(server: ReturnType<typeof build>, params: Params, authInfo?: RequestChannel['authInfo']) {
  const channel: RequestChannel = { signal: new AbortController().signal, notify: () => undefined, authInfo };
  const request = {
    jsonrpc: '2.0' as const,
    id: nextId++,
    method: 'tools/call',
    params: { _meta: meta(), ...params },
  };
  assertWireValid(request, '2026-07-28');
  const result = await runtimeOf(server).handle(request, channel);
  assertWireValid({ jsonrpc: '2.0', id: request.id, result }, '2026-07-28');
  return result;
}

const accept = (content: object) => ({ action: 'accept', content });

describe('multi round-trip requests', () => {
  it('completes a tool that elicits twice then samples, one round per question', async () => {
    const server = build();
    const r1 = await call(server, { name: 'interview' });
    expect(r1.resultType).toBe('input_required');
    expect(Object.keys(r1.inputRequests as object)).toEqual(['elicitation-1']);
    const r2 = await call(server, {
      name: 'interview',
      inputResponses: { 'elicitation-1': accept({ name: 'Ada' }) },
      requestState: r1.requestState,
    });
    expect(Object.keys(r2.inputRequests as object)).toEqual(['elicitation-2']);
    expect(r2.requestState).not.toBe(r1.requestState);
    const r3 = await call(server, {
      name: 'interview',
      inputResponses: { 'elicitation-2': accept({ colour: 'red' }) },
      requestState: r2.requestState,
    });
    expect(Object.keys(r3.inputRequests as object)).toEqual(['sampling-1']);
    const answer = { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' };
    const r4 = await call(server, {
      name: 'interview',
      inputResponses: { 'sampling-1': answer },
      requestState: r3.requestState,
    });
    expect(r4.resultType).toBe('complete');
    expect((r4.content as { text: string }[])[0]?.text).toBe(
      'Ada likes red; model said {"type":"text","text":"hello"}',
    );
  });

  it('asks for every input a handler awaits together', async () => {
    const r = await call(build(), { name: 'all-at-once' });
    expect(r.inputRequests).toMatchObject({
      user: { method: 'elicitation/create' },
      model: { method: 'sampling/createMessage' },
      roots: { method: 'roots/list' },
    });
  });

  it('passes an explicit inputRequired() answer through with sealed state', async () => {
    const r = await call(build(), { name: 'explicit' });
    expect(r).toMatchObject({
      resultType: 'input_required',
      inputRequests: { ask: { method: 'roots/list' } },
    });
    expect(typeof r.requestState).toBe('string');
  });

  it('asks again when answers come under unknown keys, ignoring extras', async () => {
    const server = build();
    const r1 = await call(server, { name: 'interview' });
    const r2 = await call(server, {
      name: 'interview',
      inputResponses: { other: accept({ name: 'x' }) },
      requestState: r1.requestState,
    });
    expect(Object.keys(r2.inputRequests as object)).toEqual(['elicitation-1']);
  });

  it('rejects inputResponses that are not an object with -32602', async () => {
    await expect(call(build(), { name: 'interview', inputResponses: null })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('rejects an accepted elicitation answer that breaks the requested schema', async () => {
    const server = build();
    const r1 = await call(server, { name: 'interview' });
    await expect(
      call(server, {
        name: 'interview',
        inputResponses: { 'elicitation-1': accept({ name: 42 }) },
        requestState: r1.requestState,
      }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('rejects tampered state with -32602 before the handler runs', async () => {
    const server = build();
    const r1 = await call(server, { name: 'interview' });
    await expect(
      call(server, { name: 'interview', requestState: `${String(r1.requestState)}-TAMPERED` }),
    ).rejects.toMatchObject({ code: -32602 });
    const state = String(r1.requestState);
    const at = state.length - 10;
    const flipped = state.slice(0, at) + (state[at] === 'A' ? 'B' : 'A') + state.slice(at + 1);
    await expect(call(server, { name: 'interview', requestState: flipped })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('rejects state replayed on another request or by another principal', async () => {
    const server = build();
    const r1 = await call(server, { name: 'interview', arguments: {} }, { subject: 'alice' });
    await expect(
      call(server, { name: 'all-at-once', requestState: r1.requestState }, { subject: 'alice' }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      call(server, { name: 'interview', requestState: r1.requestState }, { subject: 'mallory' }),
    ).rejects.toMatchObject({ code: -32602 });
    const ok = await call(server, { name: 'interview', requestState: r1.requestState }, { subject: 'alice' });
    expect(ok.resultType).toBe('input_required');
  });

  it('rejects expired state', async () => {
    let now = 1_000;
    const server = build({ requestState: { ttlMs: 100, now: () => now } });
    const r1 = await call(server, { name: 'interview' });
    now += 101;
    await expect(call(server, { name: 'interview', requestState: r1.requestState })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('opens state sealed by another instance sharing the key ring, and by a rotated-out key', async () => {
    const old = generateStateKey('old');
    const fresh = generateStateKey('new');
    const a = build({ requestState: { keys: [old] } });
    const b = build({ requestState: { keys: [fresh, old] } });
    const r1 = await call(a, { name: 'interview' });
    const r2 = await call(b, {
      name: 'interview',
      inputResponses: { 'elicitation-1': accept({ name: 'Ada' }) },
      requestState: r1.requestState,
    });
    expect(Object.keys(r2.inputRequests as object)).toEqual(['elicitation-2']);
    expect(String(r2.requestState).startsWith('v1.new.')).toBe(true);
    const c = build({ requestState: createStateSealer({ keys: [fresh] }) });
    await expect(call(c, { name: 'interview', requestState: r1.requestState })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('answers -32021 naming the capability when the client cannot provide the input', async () => {
    const server = build();
    const request = {
      jsonrpc: '2.0' as const,
      id: 1,
      method: 'tools/call',
      params: { name: 'interview', _meta: meta({ sampling: {} }) },
    };
    const channel: RequestChannel = { signal: new AbortController().signal, notify: () => undefined };
    await expect(runtimeOf(server).handle(request, channel)).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });
});

describe('ctx.inputResponses', () => {
  it('shows the answers known so far to a handler that reads them itself', async () => {
    const server = createServer({ name: 's', version: '1' });
    server.tool('manual', {}, (_args, ctx) => {
      const answer = ctx.inputResponses.pick as { action?: string } | undefined;
      if (!answer)
        return inputRequired({
          pick: {
            method: 'elicitation/create',
            params: { mode: 'form', message: 'Pick', requestedSchema: { type: 'object', properties: {} } },
          },
        });
      return `picked: ${String(answer.action)}`;
    });
    const r1 = await call(server as ReturnType<typeof build>, { name: 'manual' });
    expect(r1.resultType).toBe('input_required');
    const r2 = await call(server as ReturnType<typeof build>, {
      name: 'manual',
      inputResponses: { pick: { action: 'decline' } },
      requestState: r1.requestState,
    });
    expect((r2.content as { text: string }[])[0]?.text).toBe('picked: decline');
  });
});
