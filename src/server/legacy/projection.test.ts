/**
 * A server that uses what only 2026-07-28 allows, served to a 2025-11-25 session: every message
 * the legacy client receives validates against the 2025-11-25 schema, and the projection keeps
 * the meaning (a wrapped `structuredContent` matches the wrapped `outputSchema`). Walks the
 * 2026-07-28 changelog: SEP-2106 (any outputSchema root, any structuredContent, boolean
 * subschemas), `extensions` in capabilities and the Tasks extension (SEP-2663), MRTR
 * `input_required` answers (SEP-2322), URL elicitation without `elicitationId` (minor change 11).
 */
import { describe, expect, it } from 'vitest';
import { WireError } from '../../core/errors.js';
import type { JsonRpcRequest, Params } from '../../core/jsonrpc.js';
import { Peer } from '../../core/peer.js';
import { createLinkedPair } from '../../testing/linked-pair.js';
import { validateWire } from '../../testing/wire-tap.js';
import { compileJsonSchema } from '../../validation/index.js';
import { createClient } from '../../client/index.js';
import { connect, createServer, inputRequired } from '../index.js';

const ARRAY = { type: 'array', items: { type: 'string' } } as const;

function modernShapes() {
  const server = createServer({ name: 'modern-shapes', version: '1', tasks: {} });
  server.tool('letters', { outputSchema: ARRAY }, () => ['a', 'b'] as never);
  server.tool(
    'defs',
    { outputSchema: { $defs: { n: { type: 'integer' } }, type: 'array', items: { $ref: '#/$defs/n' } } },
    () => ({ content: [{ type: 'text', text: '1 2' }], structuredContent: [1, 2] }),
  );
  server.tool('answer', { outputSchema: { type: 'integer' } }, () => ({
    content: [{ type: 'text', text: '42' }],
    structuredContent: 42,
  }));
  server.tool(
    'loose',
    {},
    () => ({ content: [{ type: 'text', text: 'x' }], structuredContent: 'x' }) as never,
  );
  server.tool(
    'any-arg',
    { inputSchema: { type: 'object', properties: { x: true, y: false } } as never },
    () => 'ok',
  );
  server.tool('object', { outputSchema: { type: 'object', properties: { n: { type: 'number' } } } }, () => ({
    n: 1,
  }));
  server.tool('sign-in', {}, async (_a, ctx) => {
    const answer = await ctx.elicit({
      mode: 'url',
      message: 'Sign in',
      url: 'https://example.com/in',
    } as never);
    return answer.action;
  });
  server.tool('explicit', {}, (_a, ctx) =>
    ctx.inputResponses.r
      ? `roots ${(ctx.inputResponses.r as { roots: unknown[] }).roots.length}`
      : inputRequired({ r: { method: 'roots/list', params: {} } }),
  );
  server.tool('in-a-task', { task: 'optional' }, () => 'done');
  return server;
}

const CAPS = {
  elicitation: { form: {}, url: {} },
  roots: {},
  extensions: { 'io.modelcontextprotocol/tasks': {} },
};

/** A raw 2025-11-25 client; every message it receives is checked against the 2025-11-25 schema. */
async function legacySession() {
  const [a, b] = createLinkedPair();
  await connect(modernShapes(), b);
  const tapped = validateWire(a, '2025-11-25');
  const asked: Params[] = [];
  const peer = new Peer(tapped, {
    request: async (request: JsonRpcRequest) => {
      asked.push({ method: request.method, ...request.params });
      if (request.method === 'elicitation/create') return { action: 'accept' };
      if (request.method === 'roots/list') return { roots: [{ uri: 'file:///r' }] };
      throw WireError.of('MethodNotFound', request.method);
    },
  });
  await peer.start();
  const init = await peer.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: CAPS,
    clientInfo: { name: 'old', version: '1' },
  });
  peer.notify('notifications/initialized');
  return { peer, init, asked, violations: tapped.violations };
}

describe('a 2025-11-25 session of a server using 2026-07-28 shapes', () => {
  it('receives only messages valid in 2025-11-25', async () => {
    const { peer, init, asked, violations } = await legacySession();
    const tools = (await peer.request('tools/list', {})).tools as { name: string }[];
    for (const { name } of tools)
      await peer.request('tools/call', { name, arguments: {} }).catch(() => undefined);
    await peer.close();
    expect(init.capabilities).not.toHaveProperty('extensions');
    expect(asked.map((a) => a.method)).toEqual(['elicitation/create', 'roots/list']);
    expect(violations).toEqual([]);
  });

  it('gets an outputSchema with a non-object root wrapped as { result }, and its structuredContent with it', async () => {
    const { peer } = await legacySession();
    const tools = (await peer.request('tools/list', {})).tools as { name: string; outputSchema?: Params }[];
    const schemaOf = (name: string) => tools.find((t) => t.name === name)?.outputSchema;
    expect(schemaOf('letters')).toEqual({
      type: 'object',
      properties: { result: ARRAY },
      required: ['result'],
    });
    expect(schemaOf('object')).toEqual({ type: 'object', properties: { n: { type: 'number' } } });
    for (const [name, value] of [
      ['letters', ['a', 'b']],
      ['defs', [1, 2]],
      ['answer', 42],
    ] as const) {
      const result = await peer.request('tools/call', { name, arguments: {} });
      expect(result.structuredContent).toEqual({ result: value });
      const checked = await compileJsonSchema(schemaOf(name)!)(result.structuredContent);
      expect(checked.ok).toBe(true);
    }
    const loose = await peer.request('tools/call', { name: 'loose', arguments: {} });
    expect(loose.structuredContent).toEqual({ result: 'x' });
    const object = await peer.request('tools/call', { name: 'object', arguments: {} });
    expect(object.structuredContent).toEqual({ n: 1 });
    await peer.close();
  });

  it('gets boolean property schemas as objects, a URL elicitation with an elicitationId, input_required asked on the session', async () => {
    const { peer, asked } = await legacySession();
    const tools = (await peer.request('tools/list', {})).tools as { name: string; inputSchema: Params }[];
    expect(tools.find((t) => t.name === 'any-arg')?.inputSchema.properties).toEqual({
      x: {},
      y: { not: {} },
    });
    expect(await peer.request('tools/call', { name: 'sign-in', arguments: {} })).toMatchObject({
      content: [{ text: 'accept' }],
    });
    expect(asked[0]).toMatchObject({ mode: 'url', elicitationId: expect.any(String) });
    expect(await peer.request('tools/call', { name: 'explicit', arguments: {} })).toMatchObject({
      content: [{ text: 'roots 1' }],
    });
    await peer.close();
  });

  it('the same tools stay as they are on 2026-07-28', async () => {
    const [a, b] = createLinkedPair();
    await connect(modernShapes(), b);
    const violations: string[] = [];
    const client = createClient({ name: 'c', version: '1', era: 'modern' });
    await client.connect(validateWire(a, '2026-07-28', violations));
    const tools = await client.listTools();
    expect(tools.find((t) => t.name === 'letters')?.outputSchema).toEqual(ARRAY);
    expect((await client.callTool('letters', {})).structuredContent).toEqual(['a', 'b']);
    await client.close();
    expect(violations).toEqual([]);
  });

  it("mcpkit's own legacy client checks the wrapped structuredContent against the wrapped schema", async () => {
    const [a, b] = createLinkedPair();
    await connect(modernShapes(), b);
    const violations: string[] = [];
    const client = createClient({ name: 'c', version: '1', era: 'legacy' });
    await client.connect(validateWire(a, '2025-11-25', violations));
    expect((await client.callTool('letters', {})).structuredContent).toEqual({ result: ['a', 'b'] });
    await client.close();
    expect(violations).toEqual([]);
  });
});
