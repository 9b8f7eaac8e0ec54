import { afterEach, describe, expect, it } from 'vitest';
import { LocalError } from '../core/errors.js';
import type { JsonRpcMessage, JsonRpcRequest, Params } from '../core/jsonrpc.js';
import type { Transport } from '../core/transport.js';
import { connect, createServer, type McpServer } from '../server/index.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import type { WireRevision } from '../testing/wire-schema.js';
import { validateWire } from '../testing/wire-tap.js';
import { connectFake, modern } from '../../test/support/client-harness.js';
import {
  applyElicitationDefaults,
  createClient,
  type Client,
  type ClientHandlers,
  type ClientOptions,
} from './index.js';
import { until } from '../../test/support/wait.js';

const ERAS = [
  ['modern', '2026-07-28'],
  ['legacy', '2025-11-25'],
] as const;

const sampled = { role: 'assistant' as const, content: { type: 'text' as const, text: 'hello' }, model: 'm' };
const handlers: ClientHandlers = {
  elicitation: async (params) => {
    const name = params.message === 'Name?' ? { name: 'Ada' } : { colour: 'red' };
    return { action: 'accept', content: name };
  },
  sampling: async () => sampled,
  roots: async () => ({ roots: [] }),
};

const DEFAULTS_SCHEMA = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, default: 'John Doe' },
    age: { type: 'integer' as const, default: 30 },
    score: { type: 'number' as const, default: 95.5 },
    status: { type: 'string' as const, enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean' as const, default: true },
  },
};

function buildServer(): McpServer {
  const server = createServer({ name: 's', version: '1' });
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
  server.tool('defaults', {}, async (_args, ctx) => {
    const answer = await ctx.elicit({ mode: 'form', message: 'Profile?', requestedSchema: DEFAULTS_SCHEMA });
    return JSON.stringify(answer.content);
  });
  return server;
}

/** Records what the client sends and receives. */
function record(transport: Transport, sent: JsonRpcMessage[], received: JsonRpcMessage[]): Transport {
  return {
    start: (sink) =>
      transport.start({
        frame: (text) => (received.push(JSON.parse(text)), sink.frame(text)),
        closed: (e) => sink.closed(e),
      }),
    send: (message) => (sent.push(...[message].flat()), transport.send(message)),
    close: () => transport.close(),
  };
}

const clients: Client[] = [];
const violations: string[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  expect(violations.splice(0), 'messages that break the official schema').toEqual([]);
});

/** A client connected to our real server over the linked pair, every message validated. */
async function live(server: McpServer, revision: WireRevision, options: Partial<ClientOptions> = {}) {
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const sent: JsonRpcMessage[] = [];
  const received: JsonRpcMessage[] = [];
  const client = createClient({
    name: 'c',
    version: '1',
    era: revision === '2026-07-28' ? 'modern' : 'legacy',
    handlers,
    ...options,
  });
  clients.push(client);
  await client.connect(validateWire(record(a, sent, received), revision, violations));
  return { client, sent, received };
}

const calls = (sent: JsonRpcMessage[]) =>
  sent.filter((m): m is JsonRpcRequest => 'method' in m && 'id' in m && m.method === 'tools/call');

describe.each(ERAS)('a tool that elicits twice then samples, %s era', (era, revision) => {
  it('completes against the real server', async () => {
    const { client } = await live(buildServer(), revision);
    const result = await client.callTool('interview');
    expect(result.content).toEqual([
      { type: 'text', text: 'Ada likes red; model said {"type":"text","text":"hello"}' },
    ]);
    expect(client.era).toBe(era);
  });

  it('gets the omitted form fields filled with the schema defaults', async () => {
    const { client } = await live(buildServer(), revision, {
      handlers: { elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
    });
    const result = await client.callTool('defaults');
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({
      name: 'Ada',
      age: 30,
      score: 95.5,
      status: 'active',
      verified: true,
    });
  });

  it('leaves the omitted fields out with fillElicitationDefaults: false', async () => {
    const { client } = await live(buildServer(), revision, {
      fillElicitationDefaults: false,
      handlers: { elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
    });
    const result = await client.callTool('defaults');
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({ name: 'Ada' });
  });
});

describe('multi round-trip requests on the modern wire', () => {
  it('retry with a new id, the answers to the last round and its requestState byte for byte', async () => {
    const { client, sent, received } = await live(buildServer(), '2026-07-28');
    await client.callTool('interview');
    const requests = calls(sent);
    expect(requests).toHaveLength(4);
    expect(new Set(requests.map((r) => r.id)).size).toBe(4);
    expect(requests[0]?.params).not.toHaveProperty('requestState');
    expect(requests[0]?.params).not.toHaveProperty('inputResponses');
    for (let i = 1; i < requests.length; i++) {
      const previous = received.find((m) => 'result' in m && m.id === requests[i - 1]?.id) as {
        result: Params;
      };
      const retry = requests[i]?.params as Params;
      expect(retry.requestState).toBe(previous.result.requestState);
      expect(Object.keys(retry.inputResponses as object)).toEqual(
        Object.keys(previous.result.inputRequests as object),
      );
      expect(retry.name).toBe('interview');
    }
  });

  it('send no requestState on a retry when the server gave none', async () => {
    let round = 0;
    const fake = await connectFake(
      modern({
        'tools/call': () =>
          round++ === 0
            ? { resultType: 'input_required', inputRequests: { r: { method: 'roots/list', params: {} } } }
            : { resultType: 'complete', content: [] },
      }),
      { era: 'modern', handlers },
    );
    await fake.client.request('tools/call', { name: 't' });
    const retry = fake.received.at(-1)?.params as Params;
    expect(retry).not.toHaveProperty('requestState');
    expect(retry.inputResponses).toEqual({ r: { roots: [] } });
  });

  it('retry at once with the state alone when inputRequests is absent, dropping stale fields', async () => {
    let round = 0;
    const fake = await connectFake(
      modern({
        'prompts/get': () =>
          round++ === 0
            ? { resultType: 'input_required', requestState: 'opaque ✓' }
            : { resultType: 'complete', messages: [] },
      }),
      { era: 'modern' },
    );
    await fake.client.request('prompts/get', { name: 'p', requestState: 'mine', inputResponses: {} });
    const retry = fake.received.at(-1)?.params as Params;
    expect(retry.requestState).toBe('opaque ✓');
    expect(retry).not.toHaveProperty('inputResponses');
    expect(fake.received.at(-1)?.id).not.toBe(fake.received.at(-2)?.id);
  });

  it('give up with INVALID_RESULT after maxInputRounds rounds', async () => {
    const fake = await connectFake(
      modern({ 'tools/call': () => ({ resultType: 'input_required', requestState: 's' }) }),
      { era: 'modern', maxInputRounds: 3 },
    );
    const error = await fake.client.request('tools/call', { name: 't' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: 'INVALID_RESULT', message: expect.stringMatching(/maxInputRounds/) });
    expect(fake.received.filter((r) => r.method === 'tools/call')).toHaveLength(4);
  });

  it('fail with INVALID_RESULT naming the handler that is missing, without retrying', async () => {
    const fake = await connectFake(
      modern({
        'tools/call': () => ({
          resultType: 'input_required',
          inputRequests: { m: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } } },
        }),
      }),
      { era: 'modern', handlers: { elicitation: handlers.elicitation! } },
    );
    await expect(fake.client.request('tools/call', { name: 't' })).rejects.toMatchObject({
      code: 'INVALID_RESULT',
      message: expect.stringMatching(/handlers\.sampling/),
    });
    expect(fake.received.filter((r) => r.method === 'tools/call')).toHaveLength(1);
  });

  it('treat input_required on a method that may not get it as an invalid result', async () => {
    const fake = await connectFake(
      modern({ 'completion/complete': () => ({ resultType: 'input_required', requestState: 's' }) }),
      { era: 'modern' },
    );
    await expect(
      fake.client.complete({ type: 'ref/prompt', name: 'p' }, { name: 'a', value: '' }),
    ).rejects.toMatchObject({ code: 'INVALID_RESULT', message: expect.stringMatching(/only tools\/call/) });
  });

  it('run the handlers of one round concurrently and abort them with the call’s signal', async () => {
    const started: string[] = [];
    const aborted: string[] = [];
    const waitForAbort = (key: string, signal: AbortSignal) => {
      started.push(key);
      return new Promise<never>((_resolve, reject) =>
        signal.addEventListener('abort', () => (aborted.push(key), reject(new Error('aborted')))),
      );
    };
    const fake = await connectFake(
      modern({
        'tools/call': () => ({
          resultType: 'input_required',
          inputRequests: {
            a: { method: 'roots/list', params: {} },
            b: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } },
          },
        }),
      }),
      {
        era: 'modern',
        handlers: {
          roots: (_p, { signal }) => waitForAbort('a', signal),
          sampling: (_p, { signal }) => waitForAbort('b', signal),
        },
      },
    );
    const abort = new AbortController();
    const call = fake.client.request('tools/call', { name: 't' }, { signal: abort.signal });
    await until(() => started.length === 2);
    expect(started).toEqual(['a', 'b']);
    abort.abort();
    await expect(call).rejects.toMatchObject({ code: 'ABORTED' });
    expect(aborted).toEqual(['a', 'b']);
    expect(fake.received.filter((r) => r.method === 'tools/call')).toHaveLength(1);
  });
});

describe('applyElicitationDefaults', () => {
  it.each([
    [
      'fills every omitted field',
      {},
      { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true },
    ],
    [
      'keeps what the user gave',
      { name: 'Ada', verified: false },
      { name: 'Ada', age: 30, score: 95.5, status: 'active', verified: false },
    ],
    [
      'starts from nothing when content is absent',
      undefined,
      { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true },
    ],
  ])('%s', (_name, content, expected) => {
    expect(applyElicitationDefaults(DEFAULTS_SCHEMA, content)).toEqual(expected);
  });

  it('leaves fields without a default omitted and ignores a schema without properties', () => {
    expect(applyElicitationDefaults({ type: 'object', properties: { x: { type: 'string' } } }, {})).toEqual(
      {},
    );
    expect(applyElicitationDefaults({ type: 'object' }, { a: 1 })).toEqual({ a: 1 });
  });
});
