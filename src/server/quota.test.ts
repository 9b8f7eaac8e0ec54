import { describe, expect, it, vi } from 'vitest';
import { PrincipalBudgets, noRelease, runtimeOf } from './runtime.js';
import type { Params } from '../core/jsonrpc.js';
import type { ScopeBinding, ScopeLine } from './scope.js';
type RequestChannel = ScopeLine & ScopeBinding;
import { createServer, type McpServer } from './index.js';
import { createMemoryEventStore } from './http/index.js';
import { deferred } from '../../test/support/wait.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

let nextId = 1;
function request(server: McpServer, method: string, params: Params, channel: Partial<RequestChannel>) {
  const full: RequestChannel = {
    signal: new AbortController().signal,
    notify: () => undefined,
    era: 'modern',
    ...channel,
  };
  return runtimeOf(server).handle(
    { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: META } },
    full,
  );
}

describe('listen streams per principal', () => {
  it('a principal over maxListenStreamsPerPrincipal gets -32600 (HTTP 429); others and unidentified callers still listen', async () => {
    const server = createServer({ name: 'q', version: '1', limits: { maxListenStreamsPerPrincipal: 2 } });
    server.tool('t', {}, () => 't');
    const open = (principal: string | undefined) => {
      const stop = new AbortController();
      const done = request(
        server,
        'subscriptions/listen',
        { notifications: { toolsListChanged: true } },
        {
          signal: stop.signal,
          principal,
        },
      );
      return { stop, done };
    };
    const mine = [open('addr:1'), open('addr:1')];
    await expect(open('addr:1').done).rejects.toMatchObject({
      code: -32600,
      httpStatus: 429,
      message: expect.stringContaining('limits.maxListenStreamsPerPrincipal'),
    });
    const theirs = open('addr:2');
    const anonymous = [open(''), open(''), open('')];
    mine[0]!.stop.abort();
    await mine[0]!.done;
    const again = open('addr:1');
    for (const s of [mine[1]!, theirs, again, ...anonymous]) s.stop.abort();
    await Promise.all([mine[1]!, theirs, again, ...anonymous].map((s) => s.done));
  });
});

describe('running tasks per principal', () => {
  it('a principal over maxTasksPerPrincipal gets -32600 (HTTP 429) until one of its tasks ends', async () => {
    const gate = deferred();
    const server = createServer({ name: 'q', version: '1', limits: { maxTasksPerPrincipal: 1 } });
    server.tool('slow', { task: 'optional' }, async () => {
      await gate.promise;
      return 'done';
    });
    const start = (principal: string) =>
      request(server, 'tools/call', { name: 'slow', arguments: {} }, { principal });
    expect(await start('auth:alice')).toMatchObject({ resultType: 'task' });
    await expect(start('auth:alice')).rejects.toMatchObject({
      code: -32600,
      httpStatus: 429,
      message: expect.stringContaining('limits.maxTasksPerPrincipal'),
    });
    expect(await start('auth:bob')).toMatchObject({ resultType: 'task' });
    gate.resolve();
    await expect
      .poll(() =>
        start('auth:alice').then(
          (r) => r.resultType,
          () => 'refused',
        ),
      )
      .toBe('task');
  });
});

describe('stored SSE events per owner', () => {
  it('one owner flooding its streams drops only its own oldest events', () => {
    const store = createMemoryEventStore({ maxEvents: 100, maxEventsPerOwner: 10 });
    const event = (seq: number) => ({
      id: `s_${seq}`,
      seq,
      message: { jsonrpc: '2.0' as const, method: 'm' },
    });
    for (let seq = 1; seq <= 5; seq++) store.append('victim-stream', event(seq), 'addr:victim');
    for (let seq = 1; seq <= 50_000; seq++) store.append(`flood-${seq % 3}`, event(seq), 'addr:flooder');
    expect((store.since('victim-stream', 0) as unknown[]).length).toBe(5);
    const kept = [0, 1, 2].flatMap((n) => store.since(`flood-${n}`, 0) as { seq: number }[]);
    expect(kept.map((e) => e.seq).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 10 }, (_, i) => 49_991 + i),
    );
  });

  it('the global bound still drops the oldest of all, unidentified events included', () => {
    const store = createMemoryEventStore({ maxEvents: 10, maxEventsPerOwner: 10 });
    const event = (seq: number) => ({
      id: `s_${seq}`,
      seq,
      message: { jsonrpc: '2.0' as const, method: 'm' },
    });
    for (let seq = 1; seq <= 5; seq++) store.append('a', event(seq), 'addr:a');
    for (let seq = 1; seq <= 8; seq++) store.append('b', event(seq));
    expect((store.since('a', 0) as { seq: number }[]).map((e) => e.seq)).toEqual([4, 5]);
    expect((store.since('b', 0) as unknown[]).length).toBe(8);
    store.deleteStream('b');
    for (let seq = 6; seq <= 13; seq++) store.append('a', event(seq), 'addr:a');
    expect((store.since('a', 0) as { seq: number }[]).map((e) => e.seq)).toEqual([
      4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
    ]);
  });
});

describe('requests in progress wait in a bounded queue', () => {
  const admitted = async (value: unknown) => {
    const settled = await value;
    if (typeof settled !== 'function') throw new Error(`refused: ${JSON.stringify(settled)}`);
    return settled as () => void;
  };

  it('a request over maxConcurrentRequests waits and takes the first slot freed, oldest first', async () => {
    const budgets = new PrincipalBudgets({ maxConcurrentRequests: 1 }, 'principals');
    const first = await admitted(budgets.admit('addr:1'));
    const order: string[] = [];
    const second = Promise.resolve(budgets.admit('addr:1')).then((r) => (order.push('second'), r));
    const third = Promise.resolve(budgets.admit('addr:1')).then((r) => (order.push('third'), r));
    expect(second).toBeInstanceOf(Promise);
    first();
    (await admitted(second))();
    (await admitted(third))();
    expect(order).toEqual(['second', 'third']);
    // Every slot is back: a new request is admitted at once.
    expect(typeof budgets.admit('addr:1')).toBe('function');
  });

  it('refuses at once when the queue is full, after queueTimeoutMs, or when the caller goes away', async () => {
    vi.useFakeTimers();
    try {
      const budgets = new PrincipalBudgets(
        { maxConcurrentRequests: 1, maxQueuedRequests: 1, queueTimeoutMs: 500 },
        'principals',
      );
      await admitted(budgets.admit('addr:1'));
      const queued = budgets.admit('addr:1');
      expect(budgets.admit('addr:1')).toMatchObject({ limit: 'concurrency', retryAfterS: 1 });
      vi.advanceTimersByTime(500);
      expect(await queued).toMatchObject({
        limit: 'concurrency',
        why: expect.stringContaining('maxConcurrentRequests'),
      });
      const leaving = new AbortController();
      const gone = budgets.admit('addr:1', { signal: leaving.signal });
      leaving.abort();
      expect(await gone).toMatchObject({ limit: 'concurrency' });
      // Another principal is not held up by this one's queue.
      expect(typeof budgets.admit('addr:2')).toBe('function');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a long-lived stream is rate-counted only, never a request in progress', async () => {
    const budgets = new PrincipalBudgets({ maxConcurrentRequests: 1, maxQueuedRequests: 0 }, 'principals');
    for (let i = 0; i < 5; i++) expect(budgets.admit('addr:1', { stream: true })).toBe(noRelease);
    expect(typeof budgets.admit('addr:1')).toBe('function');
  });

  it('maxQueuedRequests and queueTimeoutMs accept 0 but refuse NaN and negatives', () => {
    expect(
      () => new PrincipalBudgets({ maxQueuedRequests: 0, queueTimeoutMs: 0 }, 'principals'),
    ).not.toThrow();
    expect(() => new PrincipalBudgets({ maxQueuedRequests: -1 }, 'principals')).toThrow(
      /principals\.maxQueuedRequests must be a positive number/,
    );
    expect(() => new PrincipalBudgets({ queueTimeoutMs: Number.NaN }, 'principals')).toThrow(
      /queueTimeoutMs/,
    );
  });
});

describe('limits.perPrincipal on a linked pair', () => {
  it('idle listens of a principal are not requests in progress: its tools/call still runs', async () => {
    const server = createServer({
      name: 'q',
      version: '1',
      limits: { perPrincipal: { maxConcurrentRequests: 2, maxQueuedRequests: 0 } },
    });
    server.tool('t', {}, () => 't');
    const auth = { token: 'x', clientId: 'c', scopes: [], subject: 'alice' };
    const stops = Array.from({ length: 4 }, () => new AbortController());
    const listens = stops.map((stop) =>
      request(
        server,
        'subscriptions/listen',
        { notifications: { toolsListChanged: true } },
        {
          signal: stop.signal,
          authInfo: auth,
        },
      ),
    );
    const called = await request(server, 'tools/call', { name: 't', arguments: {} }, { authInfo: auth });
    expect(called).toMatchObject({ content: [{ type: 'text', text: 't' }] });
    for (const stop of stops) stop.abort();
    await Promise.all(listens);
  });
});
