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
