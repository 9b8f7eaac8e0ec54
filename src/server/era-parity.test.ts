import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WireError } from '../core/errors.js';
import type { JsonRpcRequest, Params } from '../core/jsonrpc.js';
import { Peer } from '../core/peer.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { validateWire } from '../testing/wire-tap.js';
import { connect, createServer } from './index.js';

/** The schema: a required string and a non-negative integer. */
const PERSON = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
  required: ['name'],
} as const;

/** One handler suite, served on both eras. Handlers never look at the era. */
function handlers() {
  const server = createServer({ name: 'parity', version: '1', limits: { maxResourceSubscriptions: 2 } });
  server.tool('ask', {}, async (_args, ctx) => {
    const answer = await ctx.elicit({ mode: 'form', message: 'Who?', requestedSchema: PERSON } as never);
    return answer.action === 'accept' ? JSON.stringify(answer.content) : answer.action;
  });
  server.tool('sample', {}, async (_args, ctx) => {
    const answer = await ctx.sample({ messages: [], maxTokens: 5 } as never);
    return `model ${answer.model}`;
  });
  server.tool('roots', {}, async (_args, ctx) => (await ctx.listRoots()).roots.map((r) => r.uri).join(' '));
  server.tool(
    'double',
    { inputSchema: z.object({ n: z.number().int() }), outputSchema: z.object({ doubled: z.number() }) },
    ({ n }) => ({ content: [{ type: 'text', text: String(2 * n) }], structuredContent: { doubled: 2 * n } }),
  );
  // @ts-expect-error the types refuse this result; the run-time check must catch it too
  server.tool('broken-output', { outputSchema: z.object({ n: z.number() }) }, () => ({
    content: [],
    structuredContent: { n: 'x' },
  }));
  server.tool('crash', {}, () => {
    throw new Error('database exploded');
  });
  server.resource('test://a', {}, (uri) => [{ uri, text: 'A' }]);
  server.prompt('greet', { argsSchema: z.object({ name: z.string() }) }, ({ name }) => [
    { role: 'user', content: { type: 'text', text: `Hello ${name}` } },
  ]);
  return server;
}

const CAPABILITIES = { elicitation: { form: {} }, sampling: {}, roots: {} };

/** What the client answers to each kind of input request in one case. */
type Answers = Partial<Record<'elicitation/create' | 'sampling/createMessage' | 'roots/list', unknown>>;

interface Case {
  name: string;
  method?: 'tools/call' | 'prompts/get' | 'resources/read';
  params: Params;
  answers?: Answers;
  /** `ok <text>`, `isError`, or `error <code>`: the same on both eras. */
  outcome: string;
}

/** A value nested `depth` arrays deep. */
function deep(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

const accept = (content: unknown) => ({ 'elicitation/create': { action: 'accept', content } });
const PERSON_OK = { name: 'Al', age: 3 };
const SAMPLED = { model: 'm1', role: 'assistant', content: { type: 'text', text: 'hi' } };

const CASES: Case[] = [
  {
    name: 'a valid elicitation answer',
    params: { name: 'ask' },
    answers: accept(PERSON_OK),
    outcome: `ok ${JSON.stringify(PERSON_OK)}`,
  },
  {
    name: 'content with a wrong type',
    params: { name: 'ask' },
    answers: accept({ name: 42 }),
    outcome: 'error -32602',
  },
  {
    name: 'content below a minimum',
    params: { name: 'ask' },
    answers: accept({ name: 'Al', age: -5 }),
    outcome: 'error -32602',
  },
  {
    name: 'content missing a required field',
    params: { name: 'ask' },
    answers: accept({}),
    outcome: 'error -32602',
  },
  {
    name: 'content that is not an object',
    params: { name: 'ask' },
    answers: accept(7),
    outcome: 'error -32602',
  },
  {
    name: 'an unknown action',
    params: { name: 'ask' },
    answers: { 'elicitation/create': { action: 'maybe' } },
    outcome: 'error -32602',
  },
  {
    name: 'a decline',
    params: { name: 'ask' },
    answers: { 'elicitation/create': { action: 'decline' } },
    outcome: 'ok decline',
  },
  {
    name: 'a valid sampling answer',
    params: { name: 'sample' },
    answers: { 'sampling/createMessage': SAMPLED },
    outcome: 'ok model m1',
  },
  {
    name: 'a sampling answer without model',
    params: { name: 'sample' },
    answers: { 'sampling/createMessage': { role: 'assistant', content: { type: 'text', text: 'x' } } },
    outcome: 'error -32602',
  },
  {
    name: 'a sampling answer without content',
    params: { name: 'sample' },
    answers: { 'sampling/createMessage': { model: 'm', role: 'assistant' } },
    outcome: 'error -32602',
  },
  {
    name: 'valid roots',
    params: { name: 'roots' },
    answers: { 'roots/list': { roots: [{ uri: 'file:///a' }] } },
    outcome: 'ok file:///a',
  },
  {
    name: 'a root that is not file://',
    params: { name: 'roots' },
    answers: { 'roots/list': { roots: [{ uri: 'https://x' }] } },
    outcome: 'error -32602',
  },
  {
    name: 'roots that are not a list',
    params: { name: 'roots' },
    answers: { 'roots/list': { roots: 'file:///a' } },
    outcome: 'error -32602',
  },
  { name: 'valid tool arguments', params: { name: 'double', arguments: { n: 2 } }, outcome: 'ok 4' },
  { name: 'invalid tool arguments', params: { name: 'double', arguments: { n: 'two' } }, outcome: 'isError' },
  {
    name: 'arguments that are not an object',
    params: { name: 'double', arguments: [1] },
    outcome: 'error -32602',
  },
  {
    name: 'arguments nested deeper than maxJsonDepth',
    params: { name: 'double', arguments: { n: deep(300) } },
    outcome: 'error -32600',
  },
  { name: 'an unknown tool', params: { name: 'nope' }, outcome: 'error -32602' },
  { name: 'output that breaks outputSchema', params: { name: 'broken-output' }, outcome: 'error -32603' },
  { name: 'a crashing tool', params: { name: 'crash' }, outcome: 'isError' },
  {
    name: 'valid prompt arguments',
    method: 'prompts/get',
    params: { name: 'greet', arguments: { name: 'Al' } },
    outcome: 'ok Hello Al',
  },
  {
    name: 'invalid prompt arguments',
    method: 'prompts/get',
    params: { name: 'greet', arguments: {} },
    outcome: 'error -32602',
  },
];

/** A raw client on the linked pair whose every message is checked against the revision's schema.json. */
async function rawClient(revision: '2026-07-28' | '2025-11-25', answers: Answers) {
  const [a, b] = createLinkedPair();
  await connect(handlers(), b);
  const tapped = validateWire(a, revision);
  const peer = new Peer(tapped, {
    request: async (request: JsonRpcRequest) => {
      const answer = answers[request.method as keyof Answers];
      if (answer === undefined) throw WireError.of('MethodNotFound', request.method);
      return answer as Params;
    },
  });
  await peer.start();
  return { peer, violations: tapped.violations };
}

async function legacy(
  c: Omit<Case, 'outcome'>,
  capabilities: object = CAPABILITIES,
): Promise<{ outcome: string; violations: string[] }> {
  const { peer, violations } = await rawClient('2025-11-25', c.answers ?? {});
  await peer.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities,
    clientInfo: { name: 'c', version: '1' },
  });
  peer.notify('notifications/initialized');
  const outcome = await outcomeOf(() => peer.request(c.method ?? 'tools/call', c.params));
  await peer.close();
  return { outcome, violations };
}

async function modern(
  c: Omit<Case, 'outcome'>,
  capabilities: object = CAPABILITIES,
): Promise<{ outcome: string; violations: string[] }> {
  const META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
  const { peer, violations } = await rawClient('2026-07-28', {});
  const call = async (extra: Params): Promise<Params> => {
    const result = await peer.request(c.method ?? 'tools/call', { ...c.params, ...extra, _meta: META });
    if (result.resultType !== 'input_required') return result;
    const asked = result.inputRequests as Record<string, { method: keyof Answers }>;
    const inputResponses = Object.fromEntries(
      Object.entries(asked).map(([k, q]) => [k, c.answers?.[q.method]]),
    );
    return call({ inputResponses, requestState: result.requestState });
  };
  const outcome = await outcomeOf(() => call({}));
  await peer.close();
  return { outcome, violations };
}

async function outcomeOf(send: () => Promise<Params>): Promise<string> {
  try {
    const result = await send();
    if (result.isError === true) return 'isError';
    const first = (result.content ??
      (result.messages as { content: unknown }[] | undefined)?.[0]?.content ??
      []) as { text?: string } | { text?: string }[];
    return `ok ${(Array.isArray(first) ? first[0]?.text : first.text) ?? ''}`;
  } catch (error) {
    return error instanceof WireError ? `error ${error.code}` : `threw ${String(error)}`;
  }
}

/**
 * Where the revisions themselves differ, the outcome does too, by the spec: -32021
 * (missing client capability) exists only from 2026-07-28 on, so a legacy session gets
 * -32600 with the same `requiredCapabilities` data; a missing resource is -32002 in
 * 2025-11-25 and -32602 in 2026-07-28 (server/resources "Error Handling").
 */
const DIFFERING: (Omit<Case, 'outcome'> & { legacy: string; modern: string; capabilities?: object })[] = [
  {
    name: 'an elicitation the client did not declare',
    params: { name: 'ask' },
    capabilities: {},
    legacy: 'error -32600',
    modern: 'error -32021',
  },
  {
    name: 'a missing resource',
    method: 'resources/read',
    params: { uri: 'test://missing' },
    legacy: 'error -32002',
    modern: 'error -32602',
  },
];

describe('era parity where the revisions differ', () => {
  it.each(DIFFERING)('$name', async (c) => {
    const caps = c.capabilities ?? CAPABILITIES;
    const [old, now] = await Promise.all([legacy(c, caps), modern(c, caps)]);
    expect({ legacy: old.outcome, modern: now.outcome }).toEqual({ legacy: c.legacy, modern: c.modern });
    expect([...old.violations, ...now.violations]).toEqual([]);
  });
});

describe('era parity: one handler suite, the same outcome on both eras', () => {
  it.each(CASES)('$name', async (c) => {
    const [old, now] = await Promise.all([legacy(c), modern(c)]);
    expect({ legacy: old.outcome, modern: now.outcome }).toEqual({ legacy: c.outcome, modern: c.outcome });
    expect(old.violations).toEqual([]);
    expect(now.violations).toEqual([]);
  });
});

describe('era parity of limits', () => {
  it('bounds resource subscriptions the same: a legacy session and a modern listen request', async () => {
    const uris = ['test://a', 'test://b', 'test://c'];
    const old = await rawClient('2025-11-25', {});
    await old.peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    old.peer.notify('notifications/initialized');
    const subscribe = (uri: string) => outcomeOf(() => old.peer.request('resources/subscribe', { uri }));
    expect([await subscribe('test://a'), await subscribe('test://b'), await subscribe('test://c')]).toEqual([
      'ok ',
      'ok ',
      'error -32602',
    ]);
    const now = await rawClient('2026-07-28', {});
    const listen = now.peer.request('subscriptions/listen', {
      notifications: { resourceSubscriptions: uris },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    });
    expect(await outcomeOf(() => listen)).toBe('error -32602');
    expect([...old.violations, ...now.violations]).toEqual([]);
    await Promise.all([old.peer.close(), now.peer.close()]);
  });
});
