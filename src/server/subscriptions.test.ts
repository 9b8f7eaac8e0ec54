import { afterEach, describe, expect, it, vi } from 'vitest';
import { runtimeOf } from './runtime.js';
import { Peer } from '../core/peer.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { validateWire } from '../testing/wire-tap.js';
import { deferred, turns, until } from '../../test/support/wait.js';
import { connect, createServer, type McpServer } from './index.js';
import { SubscribedUris } from './resource-uri.js';
import { ResourceSubscriptions } from './subscriptions.js';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A server whose hooks record every edge and refuse URIs under test://secret/. */
function recordingServer(): { server: McpServer; edges: string[] } {
  const edges: string[] = [];
  const server = createServer({
    name: 's',
    version: '1',
    resourceSubscriptions: {
      subscribe: (uri) => {
        edges.push(`+${uri}`);
        return !uri.startsWith('test://secret/');
      },
      unsubscribe: (uri) => void edges.push(`-${uri}`),
    },
  });
  server.resource('test://a', { name: 'a' }, (uri) => [{ uri, text: 'a' }]);
  return { server, edges };
}

async function legacyClient(server: McpServer): Promise<Peer> {
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const peer = new Peer(validateWire(a, '2025-11-25'), { request: async () => ({}) });
  await peer.start();
  await peer.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'c', version: '1' },
  });
  peer.notify('notifications/initialized');
  return peer;
}

describe('resource subscription hooks', () => {
  it('calls subscribe for the first subscriber and unsubscribe after the last, across legacy sessions', async () => {
    const { server, edges } = recordingServer();
    const one = await legacyClient(server);
    const two = await legacyClient(server);
    await one.request('resources/subscribe', { uri: 'test://a' });
    await two.request('resources/subscribe', { uri: 'test://a' });
    await one.request('resources/subscribe', { uri: 'test://a' });
    expect([edges, server.subscribers('test://a')]).toEqual([['+test://a'], 2]);
    await one.request('resources/unsubscribe', { uri: 'test://a' });
    expect(edges).toEqual(['+test://a']);
    await two.request('resources/unsubscribe', { uri: 'test://a' });
    await two.request('ping', {});
    expect([edges, server.subscribers('test://a')]).toEqual([['+test://a', '-test://a'], 0]);
    await Promise.all([one.close(), two.close()]);
  });

  it('refuses a legacy subscribe the hook refuses, with -32602, and keeps the session serving', async () => {
    const { server } = recordingServer();
    const peer = await legacyClient(server);
    await expect(peer.request('resources/subscribe', { uri: 'test://secret/x' })).rejects.toMatchObject({
      code: -32602,
    });
    expect(server.subscribers('test://secret/x')).toBe(0);
    await expect(peer.request('ping', {})).resolves.toEqual({});
    await peer.close();
  });

  it('releases a session’s subscriptions when the session ends', async () => {
    const { server, edges } = recordingServer();
    const peer = await legacyClient(server);
    await peer.request('resources/subscribe', { uri: 'test://a' });
    const ended = deferred();
    const original = runtimeOf(server).sessionEnded.bind(server);
    runtimeOf(server).sessionEnded = (session) => {
      original(session);
      ended.resolve();
    };
    await peer.close();
    await ended.promise;
    expect(edges).toEqual(['+test://a', '-test://a']);
  });

  it('counts a listen stream’s URIs, acknowledges only the accepted ones, and releases them when it ends', async () => {
    const { server, edges } = recordingServer();
    const [a, b] = createLinkedPair();
    await connect(server, b);
    const got: { method: string; params?: Record<string, unknown> }[] = [];
    const peer = new Peer(validateWire(a, '2026-07-28'), {
      request: async () => ({}),
      notification: (n) => got.push(n),
    });
    await peer.start();
    const abort = new AbortController();
    const listening = peer.request(
      'subscriptions/listen',
      { _meta: MODERN_META, notifications: { resourceSubscriptions: ['test://a', 'test://secret/b'] } },
      { signal: abort.signal },
    );
    listening.catch(() => undefined);
    await until(() => got.length > 0);
    expect(got[0]?.params?.notifications).toEqual({ resourceSubscriptions: ['test://a'] });
    expect(server.subscribers('test://a')).toBe(1);
    abort.abort();
    await peer.request('resources/list', { _meta: MODERN_META });
    expect(edges).toEqual(['+test://a', '+test://secret/b', '-test://a']);
    expect(server.subscribers('test://a')).toBe(0);
    await peer.close();
  });
});

describe('ResourceSubscriptions', () => {
  it('lets a second subscriber wait for the first one’s hook, and runs unsubscribe after subscribe', async () => {
    const gate = deferred();
    const edges: string[] = [];
    const counts = new ResourceSubscriptions({
      subscribe: async (uri) => {
        await gate.promise;
        edges.push(`+${uri}`);
      },
      unsubscribe: (uri) => void edges.push(`-${uri}`),
    });
    const first = counts.acquire('u');
    const second = counts.acquire('u');
    expect(counts.count('u')).toBe(2);
    gate.resolve();
    expect(await Promise.all([first, second])).toEqual([true, true]);
    counts.release('u');
    counts.release('u');
    const again = counts.acquire('u');
    expect(await again).toBe(true);
    expect(edges).toEqual(['+u', '-u', '+u']);
  });

  it('passes on a hook’s error and does not count the failed subscription', async () => {
    const counts = new ResourceSubscriptions({
      subscribe: () => {
        throw new Error('backend down');
      },
    });
    await expect(counts.acquire('u')).rejects.toThrow('backend down');
    expect(counts.count('u')).toBe(0);
  });

  it('forgets a URI that sync could not acquire, so releasing the session does not take another subscriber’s count', async () => {
    let refuse = true;
    const edges: string[] = [];
    const counts = new ResourceSubscriptions({
      subscribe: (uri) => {
        edges.push(`+${uri}`);
        return !refuse;
      },
      unsubscribe: (uri) => void edges.push(`-${uri}`),
    });
    const replica = new SubscribedUris();
    counts.sync(replica, ['u']);
    await until(() => edges.length === 1);
    await until(() => replica.spellingOf('u') === undefined);
    refuse = false;
    expect(await counts.acquire('u')).toBe(true);
    counts.releaseAll(replica);
    expect(counts.count('u')).toBe(1);
    expect(edges).toEqual(['+u', '+u']);
  });
});

describe('hung subscription hooks (hostile: user code that never settles)', () => {
  afterEach(() => void vi.useRealTimers());

  it('fails the waiting subscribers of a subscribe hook that never settles, then frees the URI', async () => {
    vi.useFakeTimers();
    let hang = true;
    const counts = new ResourceSubscriptions(
      { subscribe: () => (hang ? new Promise<boolean>(() => undefined) : true) },
      1_000,
    );
    const first = counts.acquire('u');
    const second = counts.acquire('u');
    const outcomes = Promise.allSettled([first, second]);
    await vi.advanceTimersByTimeAsync(1_000);
    for (const outcome of await outcomes) {
      expect(outcome).toMatchObject({ status: 'rejected', reason: { code: -32603 } });
      expect(String((outcome as PromiseRejectedResult).reason.message)).toMatch(/subscriptionHookTimeoutMs/);
    }
    expect(counts.count('u')).toBe(0);
    hang = false;
    expect(await counts.acquire('u')).toBe(true);
    expect(counts.count('u')).toBe(1);
  });

  it('does not let an unsubscribe hook that never settles hold up the URI’s next subscribe', async () => {
    vi.useFakeTimers();
    const edges: string[] = [];
    const counts = new ResourceSubscriptions(
      {
        subscribe: (uri) => void edges.push(`+${uri}`),
        unsubscribe: (uri) => {
          edges.push(`-${uri}`);
          return new Promise<void>(() => undefined);
        },
      },
      1_000,
    );
    expect(await counts.acquire('u')).toBe(true);
    counts.release('u');
    const again = counts.acquire('u');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await again).toBe(true);
    expect(edges).toEqual(['+u', '-u', '+u']);
  });

  it('balances an abandoned subscribe that accepts later with unsubscribe, when nobody subscribes then', async () => {
    vi.useFakeTimers();
    const late = deferred<boolean>();
    const edges: string[] = [];
    const counts = new ResourceSubscriptions(
      {
        subscribe: async (uri) => {
          edges.push(`+${uri}`);
          return late.promise;
        },
        unsubscribe: (uri) => void edges.push(`-${uri}`),
      },
      1_000,
    );
    const first = counts.acquire('u').catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await first).toMatchObject({ code: -32603 });
    late.resolve(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(edges).toEqual(['+u', '-u']);
  });

  it.each([2 ** 31, 1e10, Infinity])(
    'treats subscriptionHookTimeoutMs = %s (beyond a timer) as no limit, not as 1 ms',
    async (timeoutMs) => {
      vi.useFakeTimers();
      const gate = deferred<boolean>();
      const counts = new ResourceSubscriptions({ subscribe: () => gate.promise }, timeoutMs);
      let outcome: unknown = 'pending';
      const acquired = counts.acquire('u').then(
        (ok) => (outcome = ok),
        (error: unknown) => (outcome = error),
      );
      await vi.advanceTimersByTimeAsync(60_000);
      expect(outcome).toBe('pending');
      gate.resolve(true);
      await acquired;
      expect(outcome).toBe(true);
      expect(counts.count('u')).toBe(1);
    },
  );

  it('answers a legacy subscribe with subscriptionHookTimeoutMs = 2^31 once its slow hook accepts', async () => {
    const gate = deferred<boolean>();
    let called = false;
    const server = createServer({
      name: 's',
      version: '1',
      limits: { subscriptionHookTimeoutMs: 2 ** 31 },
      resourceSubscriptions: { subscribe: () => ((called = true), gate.promise) },
    });
    server.resource('test://a', { name: 'a' }, (uri) => [{ uri, text: 'a' }]);
    const one = await legacyClient(server);
    let settled = false;
    // Fake timers: an overflowed delay (1 ms) would fire when the clock moves 5 ms on.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const subscribed = one
      .request('resources/subscribe', { uri: 'test://a' })
      .finally(() => (settled = true));
    try {
      await until(() => called);
      // Past the 1 ms a timer overflow would have used: the hook is still being waited for.
      await vi.advanceTimersByTimeAsync(5);
      await turns(3);
      expect(settled).toBe(false);
    } finally {
      vi.useRealTimers();
    }
    gate.resolve(true);
    await expect(subscribed).resolves.toEqual({});
    expect(server.subscribers('test://a')).toBe(1);
    await one.close();
  });

  it.each([Number.NaN, 0, -1])('refuses limits.subscriptionHookTimeoutMs = %s', (value) => {
    expect(() =>
      createServer({ name: 's', version: '1', limits: { subscriptionHookTimeoutMs: value } }),
    ).toThrow(RangeError);
  });

  it('answers a legacy subscribe whose hook hangs with -32603, keeps serving, and serves the URI to the next session', async () => {
    let hang = true;
    const server = createServer({
      name: 's',
      version: '1',
      limits: { subscriptionHookTimeoutMs: 50 },
      resourceSubscriptions: { subscribe: () => (hang ? new Promise<boolean>(() => undefined) : true) },
    });
    server.resource('test://a', { name: 'a' }, (uri) => [{ uri, text: 'a' }]);
    const one = await legacyClient(server);
    const two = await legacyClient(server);
    const failed = one.request('resources/subscribe', { uri: 'test://a' });
    await expect(failed).rejects.toMatchObject({ code: -32603 });
    await expect(failed).rejects.toThrow(/subscriptionHookTimeoutMs/);
    await expect(one.request('ping', {})).resolves.toEqual({});
    hang = false;
    await expect(two.request('resources/subscribe', { uri: 'test://a' })).resolves.toEqual({});
    expect(server.subscribers('test://a')).toBe(1);
    await Promise.all([one.close(), two.close()]);
  });
});
