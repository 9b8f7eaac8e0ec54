import { describe, expect, it } from 'vitest';
import { WireError } from '../core/errors.js';
import type { Params } from '../core/jsonrpc.js';
import { connectFake, legacy, modern, until } from '../../test/support/client-harness.js';
import type { ClientHandlers } from './index.js';

const handlers: ClientHandlers = {
  sampling: async (params) => ({
    role: 'assistant',
    content: { type: 'text', text: `max ${params.maxTokens}` },
    model: 'test-model',
  }),
  elicitation: async (params) => ({ action: 'accept', content: { said: params.message } }),
  roots: async () => ({ roots: [{ uri: 'file:///home/me', name: 'home' }] }),
};

const samplingParams = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 };
const elicitParams = { mode: 'form', message: 'name?', requestedSchema: { type: 'object', properties: {} } };

describe('requests from a legacy server', () => {
  it('declares the capabilities of the handlers in initialize', async () => {
    const fake = await connectFake(legacy(), { era: 'legacy', handlers }, '2025-11-25');
    expect(fake.received[0]?.params?.capabilities).toEqual({
      sampling: {},
      elicitation: { form: {} },
      roots: { listChanged: true },
    });
  });

  it.each([
    [
      'sampling/createMessage',
      samplingParams,
      { role: 'assistant', content: { type: 'text', text: 'max 5' }, model: 'test-model' },
    ],
    ['elicitation/create', elicitParams, { action: 'accept', content: { said: 'name?' } }],
    ['roots/list', undefined, { roots: [{ uri: 'file:///home/me', name: 'home' }] }],
    ['ping', undefined, {}],
  ])('answers %s', async (method, params, expected) => {
    const fake = await connectFake(legacy(), { era: 'legacy', handlers }, '2025-11-25');
    await expect(fake.server.request(method, params as Params | undefined)).resolves.toEqual(expected);
  });

  it.each(['sampling/createMessage', 'elicitation/create', 'roots/list', 'tasks/list'])(
    'answers %s with -32601 when there is no handler',
    async (method) => {
      const fake = await connectFake(legacy(), { era: 'legacy' }, '2025-11-25');
      const error = await fake.server.request(method, {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WireError);
      expect(error).toMatchObject({ code: -32601 });
    },
  );

  it('passes a handler’s WireError through to the server', async () => {
    const refusing: ClientHandlers = {
      sampling: async () => {
        throw WireError.of('InvalidParams', 'user rejected sampling');
      },
    };
    const fake = await connectFake(legacy(), { era: 'legacy', handlers: refusing }, '2025-11-25');
    await expect(fake.server.request('sampling/createMessage', samplingParams)).rejects.toMatchObject({
      code: -32602,
      message: 'user rejected sampling',
    });
  });

  it('aborts the handler’s signal when the server cancels', async () => {
    let aborted = false;
    let started = false;
    const waiting: ClientHandlers = {
      roots: (_params, { signal }) =>
        new Promise((_resolve, reject) => {
          started = true;
          signal.addEventListener('abort', () => ((aborted = true), reject(signal.reason)));
        }),
    };
    const fake = await connectFake(legacy(), { era: 'legacy', handlers: waiting }, '2025-11-25');
    const controller = new AbortController();
    const pending = fake.server.request('roots/list', undefined, { signal: controller.signal });
    await until(() => started);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
    await until(() => aborted);
  });
});

describe('requests from a modern server', () => {
  it('are answered with -32601 even when a handler exists', async () => {
    const fake = await connectFake(modern(), { handlers });
    await expect(fake.server.request('roots/list', {})).rejects.toMatchObject({ code: -32601 });
  });
});

const TOOL_SAMPLING = { ...samplingParams, tools: [{ name: 'lookup', inputSchema: { type: 'object' } }] };

describe('requests that need a capability the client did not declare', () => {
  it.each([
    ['sampling/createMessage', TOOL_SAMPLING, { sampling: { tools: {} } }],
    [
      'sampling/createMessage',
      { ...samplingParams, includeContext: 'thisServer' },
      { sampling: { context: {} } },
    ],
    [
      'elicitation/create',
      { mode: 'url', message: 'go', url: 'https://example.com', elicitationId: 'e' },
      { elicitation: { url: {} } },
    ],
  ])(
    'legacy: answers %s %j with -32602 naming it, without running the handler',
    async (method, params, required) => {
      let ran = 0;
      const counting: ClientHandlers = {
        sampling: async (p) => (ran++, handlers.sampling!(p, { signal: new AbortController().signal })),
        elicitation: async () => (ran++, { action: 'cancel' }),
      };
      const fake = await connectFake(legacy(), { era: 'legacy', handlers: counting }, '2025-11-25');
      const error = await fake.server.request(method, params as Params).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: -32602, data: { requiredCapabilities: required } });
      expect(ran).toBe(0);
    },
  );

  it('legacy: answers a tool-enabled sampling request once the client declares sampling.tools', async () => {
    const options = { era: 'legacy' as const, handlers, capabilities: { sampling: { tools: {} } } };
    const fake = await connectFake(legacy(), options, '2025-11-25');
    await expect(fake.server.request('sampling/createMessage', TOOL_SAMPLING)).resolves.toMatchObject({
      model: 'test-model',
    });
  });

  it('modern: refuses an input_required asking for tool-enabled sampling as an invalid result', async () => {
    let ran = 0;
    const counting: ClientHandlers = {
      sampling: async () => (ran++, { role: 'assistant', model: 'm', content: { type: 'text', text: '' } }),
    };
    const inputRequests = { s: { method: 'sampling/createMessage', params: TOOL_SAMPLING } };
    const fake = await connectFake(
      modern({ 'tools/call': () => ({ resultType: 'input_required', inputRequests }) }),
      { handlers: counting },
    );
    await expect(fake.client.request('tools/call', { name: 't' })).rejects.toMatchObject({
      code: 'INVALID_RESULT',
      message: expect.stringContaining('inputRequests.s needs {"sampling":{"tools":{}}}'),
    });
    expect(ran).toBe(0);
  });
});
