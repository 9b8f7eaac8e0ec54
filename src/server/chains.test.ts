import { describe, expect, it } from 'vitest';
import type { MiddlewareContext } from '../core/middleware.js';
import { Peer } from '../core/peer.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { connect, createServer } from './index.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A server whose one middleware hands `next` a ctx it built field by field (no spread). */
async function rebuildingServer(controller: AbortController) {
  const server = createServer({ name: 'fresh-ctx', version: '1' });
  server.use((next) => (message, ctx) => {
    const fresh: MiddlewareContext = {
      side: ctx.side,
      direction: ctx.direction,
      era: ctx.era,
      protocolVersion: ctx.protocolVersion,
      signal: ctx.direction === 'incoming' ? controller.signal : ctx.signal,
      auth: { subject: 'from-middleware', scopes: [] },
    };
    return next(message, fresh);
  });
  let aborted: Promise<unknown> | undefined;
  server.tool('who', {}, (_args, ctx) => {
    ctx.progress(1);
    aborted = new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    return ctx.auth?.subject ?? 'nobody';
  });
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const peer = new Peer(a, { request: () => Promise.resolve({}) });
  await peer.start();
  return { peer, aborted: () => aborted };
}

describe('server middleware and the ctx it passes on', () => {
  it('a middleware that builds a brand-new ctx still reaches the handler, with its principal and signal', async () => {
    const controller = new AbortController();
    const { peer, aborted } = await rebuildingServer(controller);
    const seen: unknown[] = [];
    const result = await peer.request(
      'tools/call',
      { name: 'who', _meta: META },
      { onprogress: (update) => void seen.push(update) },
    );
    expect((result.content as { text: string }[])[0]?.text).toBe('from-middleware');
    expect(seen).toHaveLength(1);
    controller.abort(new Error('cancelled by middleware'));
    await expect(aborted()).resolves.toBeDefined();
    await peer.close();
  });

  it('a middleware that builds a brand-new message (not a spread) is served as that message', async () => {
    const server = createServer({ name: 'fresh-message', version: '1' });
    server.use(
      (next) => (message, ctx) =>
        message.method === 'tools/call'
          ? next(
              { kind: 'request', method: 'tools/call', params: { ...message.params, name: 'rename-target' } },
              ctx,
            )
          : next(message, ctx),
    );
    server.tool('rename-target', {}, () => 'renamed');
    const [a, b] = createLinkedPair();
    await connect(server, b);
    const peer = new Peer(a, { request: () => Promise.resolve({}) });
    await peer.start();
    const result = await peer.request('tools/call', { name: 'anything', _meta: META });
    expect((result.content as { text: string }[])[0]?.text).toBe('renamed');
    await peer.close();
  });

  it('a legacy session opened through a rebuilt ctx sends its requests through the chain', async () => {
    const outgoing: string[] = [];
    const server = createServer({ name: 'fresh-legacy', version: '1' });
    server.use((next) => (message, ctx) => {
      if (ctx.direction === 'outgoing') outgoing.push(message.method);
      return next(message, {
        side: ctx.side,
        direction: ctx.direction,
        era: ctx.era,
        protocolVersion: ctx.protocolVersion,
        signal: ctx.signal,
      });
    });
    server.tool('roots', {}, async (_args, ctx) => (await ctx.listRoots()).roots.length.toString());
    const [a, b] = createLinkedPair();
    await connect(server, b);
    const peer = new Peer(a, { request: () => Promise.resolve({ roots: [] }) });
    await peer.start();
    await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: { roots: {} },
      clientInfo: { name: 'c', version: '1' },
    });
    peer.notify('notifications/initialized');
    const result = await peer.request('tools/call', { name: 'roots' });
    expect((result.content as { text: string }[])[0]?.text).toBe('0');
    expect(outgoing).toContain('roots/list');
    await peer.close();
  });
});

describe('a middleware that calls next twice', () => {
  it('runs the handler once; the second next rejects with a LocalError naming the method', async () => {
    const server = createServer({ name: 'twice', version: '1' });
    let second: unknown;
    server.use((next) => async (message, ctx) => {
      const first = await next(message, ctx);
      if (message.kind === 'request') second = await next(message, ctx).catch((e: unknown) => e);
      return first;
    });
    let runs = 0;
    server.tool('count', {}, () => String(++runs));
    const [a, b] = createLinkedPair();
    await connect(server, b);
    const peer = new Peer(a, { request: () => Promise.resolve({}) });
    await peer.start();
    const result = await peer.request('tools/call', { name: 'count', _meta: META });
    expect((result.content as { text: string }[])[0]?.text).toBe('1');
    expect(runs).toBe(1);
    expect(second).toMatchObject({ name: 'LocalError', code: 'INVALID_ARGUMENT' });
    expect((second as Error).message).toMatch(/next twice.*tools\/call/);
    await peer.close();
  });
});
