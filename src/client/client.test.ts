import { describe, expect, it } from 'vitest';
import { WireError } from '../core/errors.js';
import type { JsonRpcNotification, Params } from '../core/jsonrpc.js';
import { META } from '../core/revisions.js';
import { connectFake, legacy, modern, until } from '../../test/support/client-harness.js';
import { turn } from '../../test/support/wait.js';

const page = (key: string, items: unknown[] = []): Params => ({
  resultType: 'complete',
  [key]: items,
  ttlMs: 0,
  cacheScope: 'public',
});
const toolResult = (extra: Params = {}): Params => ({ resultType: 'complete', content: [], ...extra });

describe('modern requests', () => {
  it('carry protocolVersion, clientCapabilities, clientInfo and logLevel in _meta on every request', async () => {
    const fake = await connectFake(
      modern({
        'tools/list': () => page('tools'),
        'prompts/get': () => ({ resultType: 'complete', messages: [] }),
        'resources/read': () => ({ resultType: 'complete', contents: [], ttlMs: 0, cacheScope: 'private' }),
        'completion/complete': () => ({ resultType: 'complete', completion: { values: [] } }),
      }),
      { logLevel: 'warning' },
    );
    await fake.client.listTools();
    await fake.client.getPrompt('p', { a: 'b' });
    await fake.client.readResource('file:///x');
    await fake.client.complete({ type: 'ref/prompt', name: 'p' }, { name: 'a', value: 'x' });
    await fake.client.discover();
    expect(fake.received).toHaveLength(6);
    for (const request of fake.received) {
      expect(request.params?._meta).toEqual({
        [META.protocolVersion]: '2026-07-28',
        [META.clientCapabilities]: {},
        [META.clientInfo]: { name: 'test-client', version: '1.0.0' },
        [META.logLevel]: 'warning',
      });
    }
  });

  it('keep the caller’s _meta and add a progressToken when onprogress is given', async () => {
    const fake = await connectFake(
      modern({
        'tools/call': async (_params, ctx) => {
          ctx.notify('notifications/progress', { progressToken: 1, progress: 5, total: 10 });
          await turn();
          return toolResult();
        },
        'tools/list': () => page('tools'),
      }),
    );
    const progress: number[] = [];
    await fake.client.request(
      'tools/call',
      { name: 't', _meta: { traceparent: '00-abc-01' } },
      {
        onprogress: (update) => progress.push(update.progress),
      },
    );
    const meta = fake.received.at(-1)?.params?._meta as Params;
    expect(meta.traceparent).toBe('00-abc-01');
    expect(meta.progressToken).toBeDefined();
    expect(meta[META.protocolVersion]).toBe('2026-07-28');
    expect(progress).toEqual([5]);
  });

  it('declare sampling, elicitation and roots when handlers are given', async () => {
    const handlers = {
      sampling: async () => ({
        role: 'assistant' as const,
        content: { type: 'text' as const, text: '' },
        model: 'm',
      }),
      elicitation: async () => ({ action: 'decline' as const }),
      roots: async () => ({ roots: [] }),
    };
    const fake = await connectFake(modern(), { handlers, elicitationModes: ['form', 'url'] });
    expect(fake.received[0]?.params?._meta).toMatchObject({
      [META.clientCapabilities]: { sampling: {}, elicitation: { form: {}, url: {} }, roots: {} },
    });
  });

  it('retry once with a supported version when a request gets -32022', async () => {
    const fake = await connectFake(
      {
        'tools/list': (params) => {
          const asked = (params._meta as Params)[META.protocolVersion];
          if (asked === '2026-07-28') return page('tools');
          throw WireError.of('UnsupportedProtocolVersion', 'no', {
            supported: ['2026-07-28'],
            requested: asked,
          });
        },
      },
      { era: 'modern', protocolVersion: '2099-01-01' },
    );
    await expect(fake.client.listTools()).resolves.toEqual([]);
    expect(fake.client.protocolVersion).toBe('2026-07-28');
    expect(fake.received).toHaveLength(2);
  });
});

describe('results', () => {
  it.each([
    ['absent', undefined],
    ['"complete"', 'complete'],
  ])('read a result whose resultType is %s as complete', async (_name, resultType) => {
    const fake = await connectFake(modern({ 'prompts/get': () => ({ resultType, messages: [] }) }));
    await expect(fake.client.getPrompt('p')).resolves.toMatchObject({ messages: [] });
  });

  it('reject an unknown resultType with INVALID_RESULT', async () => {
    const fake = await connectFake(
      modern({ 'prompts/get': () => ({ resultType: 'partial', messages: [] }) }),
    );
    await expect(fake.client.getPrompt('p')).rejects.toMatchObject({ code: 'INVALID_RESULT' });
  });

  it('surface a legacy -32002 resource-not-found as an WireError', async () => {
    const fake = await connectFake(
      legacy({
        'resources/read': () => {
          throw new WireError(-32002, 'Resource not found', { data: { uri: 'file:///nope' } });
        },
      }),
      { era: 'legacy' },
      '2025-11-25',
    );
    await expect(fake.client.readResource('file:///nope')).rejects.toMatchObject({
      name: 'WireError',
      code: -32002,
    });
  });
});

describe('legacy sessions', () => {
  it('send params without the modern _meta fields', async () => {
    const fake = await connectFake(
      legacy({ 'tools/list': () => ({ tools: [] }), ping: () => ({}) }),
      { era: 'legacy' },
      '2025-11-25',
    );
    await fake.client.listTools();
    await fake.client.ping();
    expect(fake.received.map((r) => r.params)).toEqual([expect.any(Object), undefined, undefined]);
  });

  it('offer ping, logging level and resource subscriptions', async () => {
    const ok = () => ({});
    const methods = {
      ping: ok,
      'logging/setLevel': ok,
      'resources/subscribe': ok,
      'resources/unsubscribe': ok,
    };
    const initialize = () => ({
      protocolVersion: '2025-11-25',
      capabilities: { logging: {}, resources: { subscribe: true } },
      serverInfo: { name: 'old', version: '0.1.0' },
    });
    const roots = async () => ({ roots: [] });
    const fake = await connectFake(
      { ...legacy(methods), initialize },
      { era: 'legacy', handlers: { roots } },
      '2025-11-25',
    );
    await fake.client.ping();
    await fake.client.setLoggingLevel('debug');
    await fake.client.subscribeResource('file:///a');
    await fake.client.unsubscribeResource('file:///a');
    fake.client.notifyRootsChanged();
    await until(() => fake.notifications.some((n) => n.method === 'notifications/roots/list_changed'));
    expect(fake.received.map((r) => r.method).slice(1)).toEqual(Object.keys(methods));
  });

  it('refuse resources/subscribe to a server without resources.subscribe, and send nothing', async () => {
    const fake = await connectFake(
      legacy({ 'resources/subscribe': () => ({}) }),
      { era: 'legacy' },
      '2025-11-25',
    );
    await expect(fake.client.subscribeResource('file:///a')).rejects.toMatchObject({
      code: 'MISSING_CAPABILITY',
      message: expect.stringContaining('{"resources":{"subscribe":{}}}'),
    });
    await expect(fake.client.unsubscribeResource('file:///a')).rejects.toMatchObject({
      code: 'MISSING_CAPABILITY',
    });
    expect(fake.received.map((r) => r.method)).toEqual(['initialize']);
  });

  it('send no roots/list_changed when the client did not declare roots.listChanged', async () => {
    const fake = await connectFake(legacy({ ping: () => ({}) }), { era: 'legacy' }, '2025-11-25');
    fake.client.notifyRootsChanged();
    await fake.client.ping(); // sent after the notification would have been
    expect(fake.notifications.map((n) => n.method)).not.toContain('notifications/roots/list_changed');
  });

  it('refuse modern-only discover with UNSUPPORTED_ERA', async () => {
    const fake = await connectFake(legacy(), { era: 'legacy' }, '2025-11-25');
    await expect(fake.client.discover()).rejects.toMatchObject({ code: 'UNSUPPORTED_ERA' });
  });
});

describe('legacy-only methods on a modern server', () => {
  it.each([
    ['ping', (c: import('./index.js').Client) => c.ping()],
    ['setLoggingLevel', (c: import('./index.js').Client) => c.setLoggingLevel('info')],
    ['subscribeResource', (c: import('./index.js').Client) => c.subscribeResource('file:///a')],
    ['unsubscribeResource', (c: import('./index.js').Client) => c.unsubscribeResource('file:///a')],
  ])('%s fails with UNSUPPORTED_ERA and sends nothing', async (_name, call) => {
    const fake = await connectFake(modern());
    await expect(call(fake.client)).rejects.toMatchObject({ code: 'UNSUPPORTED_ERA' });
    expect(fake.received.map((r) => r.method)).toEqual(['server/discover']);
  });
});

describe('notifications, cancellation and closing', () => {
  it('pass server notifications to onNotification', async () => {
    const seen: JsonRpcNotification[] = [];
    const fake = await connectFake(modern(), { onNotification: (n) => seen.push(n) });
    fake.server.notify('notifications/tools/list_changed');
    await until(() => seen.length > 0);
    expect(seen[0]?.method).toBe('notifications/tools/list_changed');
  });

  it('cancel a request when its signal aborts, telling the server', async () => {
    const fake = await connectFake(modern({ 'tools/call': () => new Promise<never>(() => {}) }), {
      era: 'modern',
    });
    const controller = new AbortController();
    const call = fake.client.request('tools/call', { name: 'slow' }, { signal: controller.signal });
    await until(() => fake.received.length > 0);
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'ABORTED' });
    const cancelled = fake.sent.find((m) => 'method' in m && m.method === 'notifications/cancelled');
    expect(cancelled).toMatchObject({ params: { requestId: fake.received[0]?.id } });
  });

  it('reject pending calls with CONNECTION_CLOSED when the server closes', async () => {
    const fake = await connectFake(modern({ 'tools/call': () => new Promise<never>(() => {}) }), {
      era: 'modern',
    });
    const call = fake.client.request('tools/call', { name: 'slow' });
    await until(() => fake.received.length > 0);
    await fake.server.close();
    await expect(call).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(fake.client.listTools()).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('refuse a second connect', async () => {
    const fake = await connectFake(modern());
    await expect(fake.client.connect(fake.server as never)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});
