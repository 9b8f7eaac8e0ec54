/**
 * 2026-07-28 shapes never cross the gateway to a legacy peer: a legacy front client of a
 * modern backend's tools (array `outputSchema`, input requests bridged to the session)
 * receives only messages valid in 2025-11-25, and so does a legacy backend serving a modern
 * front client's calls (its incoming requests are checked against the 2025-11-25 schema).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireError } from '../../core/errors.js';
import type { JsonRpcRequest, Params } from '../../core/jsonrpc.js';
import { Peer } from '../../core/peer.js';
import { createClient } from '../../client/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { connect, createServer } from '../../server/index.js';
import { createLinkedPair } from '../../testing/linked-pair.js';
import { wireValidator } from '../../testing/wire-schema.js';
import { validateWire } from '../../testing/wire-tap.js';
import { createGateway, createHost, type Gateway, type Host } from '../index.js';

const checkLegacy = wireValidator('2025-11-25');

function modernBackend() {
  const server = createServer({ name: 'new', version: '1', eras: ['modern'] });
  server.tool(
    'letters',
    { outputSchema: { type: 'array', items: { type: 'string' } } },
    () => ['a', 'b'] as never,
  );
  server.tool('ask', {}, async (_a, ctx) => {
    const answer = await ctx.elicit({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: {} },
    });
    return answer.action;
  });
  return server;
}

/** A legacy-only backend whose every incoming message is checked against the 2025-11-25 schema. */
function legacyBackend(violations: string[]) {
  const server = createServer({ name: 'old', version: '1', eras: ['legacy'] });
  server.use((next) => (message, ctx) => {
    const frame = {
      jsonrpc: '2.0',
      ...(message.kind === 'request' ? { id: 1 } : {}),
      method: message.method,
    };
    const errors = checkLegacy(message.params === undefined ? frame : { ...frame, params: message.params });
    if (errors.length > 0) violations.push(`${message.method}: ${errors.join('; ')}`);
    return next(message, ctx);
  });
  server.tool('ask', {}, async (_a, ctx) => {
    const answer = await ctx.elicit({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return JSON.stringify(answer.content);
  });
  return server;
}

describe('the gateway between eras', () => {
  const backendViolations: string[] = [];
  let modern: Served;
  let legacy: Served;
  let host: Host;
  let gateway: Gateway;

  beforeAll(async () => {
    modern = await serve(modernBackend(), { port: 0 });
    legacy = await serve(legacyBackend(backendViolations), { port: 0 });
    host = createHost({
      servers: { new: { url: modern.url, era: 'modern' }, old: { url: legacy.url, era: 'legacy' } },
      policy: { elicitation: 'allow' },
    });
    await host.start();
    gateway = createGateway(host);
  });

  afterAll(async () => {
    gateway?.close();
    await host?.close();
    await modern?.close();
    await legacy?.close();
  });

  it('sends a legacy front client only 2025-11-25 messages', async () => {
    const [a, b] = createLinkedPair();
    await connect(gateway.server, b);
    const tapped = validateWire(a, '2025-11-25');
    const asked: Params[] = [];
    const peer = new Peer(tapped, {
      request: async (request: JsonRpcRequest) => {
        asked.push({ method: request.method, ...request.params });
        if (request.method === 'elicitation/create') return { action: 'accept' };
        throw WireError.of('MethodNotFound', request.method);
      },
    });
    await peer.start();
    const capabilities = {
      elicitation: { form: {}, url: {} },
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    };
    const init = await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities,
      clientInfo: { name: 'front', version: '1' },
    });
    peer.notify('notifications/initialized');
    // Tasks are a modern-only extension; MCP Apps are negotiated on legacy sessions too.
    expect(Object.keys((init.capabilities as Params).extensions ?? {})).toEqual([
      'io.modelcontextprotocol/ui',
    ]);
    const tools = (await peer.request('tools/list', {})).tools as { name: string; outputSchema?: Params }[];
    const letters = tools.find((t) => t.name.endsWith('letters'))!;
    expect(letters.outputSchema).toMatchObject({ type: 'object', required: ['result'] });
    const result = await peer.request('tools/call', { name: letters.name, arguments: {} });
    expect(result.structuredContent).toEqual({ result: ['a', 'b'] });
    const ask = tools.find((t) => t.name.startsWith('new') && t.name.endsWith('ask'))!;
    expect(await peer.request('tools/call', { name: ask.name, arguments: {} })).toMatchObject({
      content: [{ text: 'accept' }],
    });
    expect(asked).toEqual([expect.objectContaining({ method: 'elicitation/create', message: 'Name?' })]);
    await peer.close();
    expect(tapped.violations).toEqual([]);
  });

  it('sends a legacy backend only 2025-11-25 messages for a modern front client', async () => {
    const [a, b] = createLinkedPair();
    await connect(gateway.server, b);
    const client = createClient({
      name: 'front',
      version: '1',
      era: 'modern',
      capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
      handlers: { elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
    });
    await client.connect(a);
    const ask = (await client.listTools()).find((t) => t.name.startsWith('old') && t.name.endsWith('ask'))!;
    expect((await client.callTool(ask.name, {})).content).toEqual([{ type: 'text', text: '{"name":"Ada"}' }]);
    await client.close();
    expect(backendViolations).toEqual([]);
  });
});
