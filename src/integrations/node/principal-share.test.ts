/**
 * One principal cannot fill the connection table (issue 35 §1): with small configured globals
 * (`serve({ maxConnections: 40 })`, `limits.maxListenStreams: 40`) and every per-principal
 * bound left at its default, bob is refused (429) beyond each of his limits — listen streams,
 * legacy sessions with their GET streams, requests in progress and queued — long before the
 * table is full, and alice is served on both eras meanwhile. The default per-principal bounds
 * keep the ratio docs/security.md promises: a tenth of the global each.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JsonRpcMessage } from '../../core/index.js';
import { createServer } from '../../server/index.js';
import { principalShare } from '../../server/runtime.js';
import { modernBody, modernHeaders } from '../../../test/support/http-harness.js';
import { serve, type Served } from './index.js';

let served: Served;
let started = 0;
let release = (): void => undefined;
const gate = new Promise<void>((resolve) => (release = resolve));
const streams = new AbortController();

beforeAll(async () => {
  const server = createServer({ name: 't', version: '1', limits: { maxListenStreams: 40 } });
  server.tool('hi', {}, () => 'hi');
  server.tool('slow', {}, async () => {
    started++;
    await gate;
    return 'slow';
  });
  served = await serve(server, {
    port: 0,
    maxConnections: 40,
    http: { principals: { principal: (r) => r.headers.get('x-user') ?? undefined } },
  });
});

afterAll(async () => {
  release();
  streams.abort();
  await served?.close();
});

let nextId = 1;
function modern(user: string, method: string, params: Record<string, unknown> = {}): Promise<Response> {
  const body = modernBody(method, params, nextId++);
  return fetch(served.url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { ...modernHeaders(body), 'x-user': user },
    signal: streams.signal,
  });
}

const LEGACY = '2025-11-25';
async function session(user: string): Promise<Response> {
  const body: JsonRpcMessage = {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'initialize',
    params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: user, version: '1' } },
  };
  const headers = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'x-user': user,
  };
  const opened = await fetch(served.url, { method: 'POST', body: JSON.stringify(body), headers });
  const id = opened.headers.get('mcp-session-id');
  if (opened.status !== 200 || !id) return opened;
  await opened.text();
  const common = { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': LEGACY };
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
  await (
    await fetch(served.url, { method: 'POST', body: JSON.stringify(initialized), headers: common })
  ).text();
  return fetch(served.url, {
    headers: { ...common, accept: 'text/event-stream' },
    signal: streams.signal,
  });
}

const LISTEN = { notifications: { toolsListChanged: true } };

describe('per-principal shares of the connection table', () => {
  it('serves alice on both eras while bob is at every one of his limits', async () => {
    const share = 4; // a tenth of the 40 configured
    const listens = await Promise.all(
      Array.from({ length: share }, () => modern('bob', 'subscriptions/listen', LISTEN)),
    );
    expect(listens.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await modern('bob', 'subscriptions/listen', LISTEN)).status).toBe(429);
    const gets = [];
    for (let i = 0; i < share; i++) gets.push(await session('bob'));
    expect(gets.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await session('bob')).status).toBe(429);
    const running = Array.from({ length: share }, () => modern('bob', 'tools/call', { name: 'slow' }));
    await vi.waitFor(() => expect(started).toBe(share), { timeout: 5000, interval: 10 });
    const extra = Array.from({ length: share + 1 }, (_, i) =>
      modern('bob', 'tools/call', { name: 'slow' }).then((r) => ({ i, r })),
    );
    const refused = await Promise.race(extra);
    expect(refused.r.status).toBe(429);

    const hi = await modern('alice', 'tools/call', { name: 'hi' });
    expect(hi.status).toBe(200);
    expect(await hi.text()).toContain('"hi"');
    const aliceListen = await modern('alice', 'subscriptions/listen', LISTEN);
    expect(aliceListen.status).toBe(200);
    const aliceSession = await session('alice');
    expect(aliceSession.status).toBe(200);
    expect(started).toBe(share);
    release();
    expect((await Promise.all(running)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
  });

  it('keeps each per-principal default at a tenth of its global bound', () => {
    expect(principalShare(10_000)).toBe(102); // listen streams, legacy sessions: a tenth of serve's 1 024
    expect(principalShare(Infinity)).toBe(102); // queued requests
    expect(principalShare(40, 40)).toBe(4);
    // What one principal holds on HTTP at every default: in progress (100), queued, listens and
    // GET streams (102 each) together stay under half of the 1 024 connections.
    expect(100 + 3 * principalShare(10_000)).toBeLessThan(1024 / 2);
  });
});
