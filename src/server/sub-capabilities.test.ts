/**
 * Sub-capabilities, both eras: a request that needs `sampling.tools`, `sampling.context` or an
 * elicitation mode the client did not declare never reaches the client and fails as any
 * undeclared input does (modern -32021, legacy -32600, with `requiredCapabilities`); a sampling
 * answer that asks to use tools the request did not offer is refused; what a legacy session may
 * ask for follows what its `initialize` advertised.
 */
import { describe, expect, it } from 'vitest';
import { WireError } from '../core/errors.js';
import type { JsonRpcRequest, Params } from '../core/jsonrpc.js';
import { Peer } from '../core/peer.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { validateWire } from '../testing/wire-tap.js';
import { honouredFilter } from './listen.js';
import { connect, createServer, inputRequired } from './index.js';

const MESSAGES = [{ role: 'user', content: { type: 'text', text: 'weather?' } }];
const TOOLS = [
  { name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
];

function server() {
  const s = createServer({ name: 'subcaps', version: '1' });
  const model = (answer: { model: string }) => `model ${answer.model}`;
  s.tool('with-tools', {}, async (_a, ctx) =>
    model(await ctx.sample({ messages: MESSAGES, maxTokens: 5, tools: TOOLS } as never)),
  );
  s.tool('with-context', {}, async (_a, ctx) =>
    model(await ctx.sample({ messages: MESSAGES, maxTokens: 5, includeContext: 'thisServer' } as never)),
  );
  s.tool('plain', {}, async (_a, ctx) =>
    model(await ctx.sample({ messages: MESSAGES, maxTokens: 5 } as never)),
  );
  s.tool(
    'url',
    {},
    async (_a, ctx) =>
      (await ctx.elicit({ mode: 'url', message: 'Sign in', url: 'https://example.com/login' } as never))
        .action,
  );
  // An explicit input_required answer is held to the same rule as ctx.sample().
  s.tool('explicit', {}, (_a, ctx) =>
    ctx.inputResponses.s
      ? `model ${(ctx.inputResponses.s as { model: string }).model}`
      : inputRequired({
          s: {
            method: 'sampling/createMessage',
            params: { messages: MESSAGES, maxTokens: 5, tools: TOOLS } as never,
          },
        }),
  );
  return s;
}

const SAMPLED = { model: 'm1', role: 'assistant', content: { type: 'text', text: 'sunny' } };
const TOOL_USE = {
  model: 'm1',
  role: 'assistant',
  stopReason: 'toolUse',
  content: [{ type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Paris' } }],
};

type Era = 'legacy' | 'modern';

/** Calls `tool` as a raw client of `era` declaring `caps`; every message is checked against the revision's schema. */
async function call(era: Era, tool: string, caps: object, answer: object = SAMPLED) {
  const [a, b] = createLinkedPair();
  await connect(server(), b);
  const tapped = validateWire(a, era === 'legacy' ? '2025-11-25' : '2026-07-28');
  const asked: string[] = [];
  const peer = new Peer(tapped, {
    request: async (request: JsonRpcRequest) => (asked.push(request.method), answer as Params),
  });
  await peer.start();
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': caps,
  };
  if (era === 'legacy') {
    await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: caps,
      clientInfo: { name: 'c', version: '1' },
    });
    peer.notify('notifications/initialized');
  }
  const send = async (extra: Params): Promise<Params> => {
    const params = era === 'modern' ? { name: tool, ...extra, _meta: meta } : { name: tool };
    const result = await peer.request('tools/call', params);
    if (result.resultType !== 'input_required') return result;
    const requests = result.inputRequests as Record<string, { method: string }>;
    for (const request of Object.values(requests)) asked.push(request.method);
    const inputResponses = Object.fromEntries(Object.keys(requests).map((k) => [k, answer]));
    return send({ inputResponses, requestState: result.requestState });
  };
  const outcome = await send({}).then(
    (r) => ({ text: (r.content as { text: string }[])[0]?.text }),
    (e: unknown) =>
      e instanceof WireError ? { code: e.code, data: e.data, message: e.message } : { thrown: e },
  );
  await peer.close();
  return { outcome, asked, violations: tapped.violations };
}

const NOT_FOUND = async (r: JsonRpcRequest): Promise<Params> => {
  throw WireError.of('MethodNotFound', r.method);
};

const CODE: Record<Era, number> = { modern: -32021, legacy: -32600 };

describe.each(['modern', 'legacy'] as const)('sub-capabilities on a %s request', (era) => {
  it.each([
    ['with-tools', { sampling: {} }, { sampling: { tools: {} } }],
    ['explicit', { sampling: {} }, { sampling: { tools: {} } }],
    ['with-context', { sampling: {} }, { sampling: { context: {} } }],
    ['with-context', { sampling: { tools: {} } }, { sampling: { context: {} } }],
    ['url', { elicitation: {} }, { elicitation: { url: {} } }],
    ['url', { elicitation: { form: {} } }, { elicitation: { url: {} } }],
  ])(
    '%s with %j fails with requiredCapabilities %j, asking the client nothing',
    async (tool, caps, required) => {
      const { outcome, asked, violations } = await call(era, tool, caps);
      expect(outcome).toMatchObject({ code: CODE[era], data: { requiredCapabilities: required } });
      expect(asked).toEqual([]);
      expect(violations).toEqual([]);
    },
  );

  it.each([
    ['with-tools', { sampling: { tools: {} } }],
    ['explicit', { sampling: { tools: {} } }],
    ['with-context', { sampling: { context: {} } }],
  ])('%s goes to the client once it declares %j', async (tool, caps) => {
    const { outcome, asked } = await call(era, tool, caps);
    expect(outcome).toEqual({ text: 'model m1' });
    expect(asked).toEqual(['sampling/createMessage']);
  });

  it('refuses a stopReason "toolUse" answer to a request that offered no tools', async () => {
    const { outcome } = await call(era, 'plain', { sampling: { tools: {} } }, TOOL_USE);
    expect(outcome).toMatchObject({ code: -32602, message: expect.stringContaining('offered no tools') });
  });

  it('takes the same answer to a request that offered tools', async () => {
    const { outcome } = await call(era, 'with-tools', { sampling: { tools: {} } }, TOOL_USE);
    expect(outcome).toEqual({ text: 'model m1' });
  });
});

describe('what a legacy session may ask for follows the initialize result', () => {
  it('answers resources/subscribe with -32601 on a server without resources', async () => {
    const [a, b] = createLinkedPair();
    await connect(server(), b);
    const peer = new Peer(a, { request: NOT_FOUND });
    await peer.start();
    const init = await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    expect(init.capabilities).not.toHaveProperty('resources');
    peer.notify('notifications/initialized');
    await expect(peer.request('resources/subscribe', { uri: 'test://a' })).rejects.toMatchObject({
      code: -32601,
    });
    await peer.close();
  });

  it('sends no list_changed for a list the session was not told changes', async () => {
    const s = server();
    const [a, b] = createLinkedPair();
    await connect(s, b);
    const heard: string[] = [];
    const peer = new Peer(a, { request: NOT_FOUND, notification: (n) => void heard.push(n.method) });
    await peer.start();
    const init = await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    expect(init.capabilities).not.toHaveProperty('prompts');
    peer.notify('notifications/initialized');
    await peer.request('ping', {}); // the session is initialized once this is answered
    s.prompt('late', {}, () => []);
    s.notifyPromptsChanged();
    s.notifyToolsChanged();
    await peer.request('tools/list', {}); // answered after the notifications would have been sent
    expect(heard).toEqual(['notifications/tools/list_changed']);
    await peer.close();
  });
});

describe('a listen filter follows the sub-capabilities', () => {
  it('leaves out list changes without listChanged and resource URIs without resources.subscribe', () => {
    const requested = {
      toolsListChanged: true,
      promptsListChanged: true,
      resourceSubscriptions: ['test://a'],
    };
    expect(honouredFilter(requested, { tools: {}, prompts: { listChanged: true }, resources: {} })).toEqual({
      promptsListChanged: true,
    });
    expect(honouredFilter(requested, { resources: { subscribe: true } })).toEqual({
      resourceSubscriptions: ['test://a'],
    });
  });
});
