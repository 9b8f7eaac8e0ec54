/**
 * Bad input for the host and the gateway: servers that cannot start, exit at once or print
 * junk, names that collide after namespacing, calls a backend never answers, and parked
 * requests nobody answers. Each gets a clear error naming its server; the rest keeps serving.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, streamableHttp, type Client } from '../client/index.js';
import { relayRequest } from '../client/runtime.js';
import { WireError } from '../core/index.js';
import { serve, type Served } from '../integrations/node/index.js';
import { OUR_EVERYTHING } from '../../test/interop/helpers.js';
import { createGateway, createHost, type Gateway, type Host, type ServerStatus } from './index.js';

const STALLING = fileURLToPath(new URL('../../test/support/fixtures/stalling-server.mjs', import.meta.url));
const node = process.execPath;

describe('a host with misbehaving servers', () => {
  let host: Host;
  let gateway: Gateway;
  let front: Served;
  let client: Client;
  const status = (name: string): ServerStatus => host.status().find((s) => s.name === name) as ServerStatus;

  beforeAll(async () => {
    host = createHost({
      servers: {
        ok: { command: node, args: [OUR_EVERYTHING] },
        twin: { command: node, args: [OUR_EVERYTHING] },
        stalling: { command: node, args: [STALLING] },
        exits: { command: node, args: ['-e', 'process.exit(3)'] },
        junk: {
          command: node,
          args: ['-e', 'console.log("hello, not JSON-RPC"); setInterval(() => {}, 1000)'],
        },
        missing: { command: '/nonexistent/mcp-server' },
      },
      // Everything under its own name: the twin's tools collide with ok's.
      qualify: (_server, name) => name,
      connectTimeoutMs: 10_000,
      // No retries of a failed first connection here (health.test.ts covers them).
      reconnect: { firstConnectAttempts: 1 },
      policy: { elicitation: 'allow' },
    });
    await host.start();
    gateway = createGateway(host, { parkTimeoutMs: 300, callTimeoutMs: 1_000 });
    front = await serve(gateway.server, { port: 0 });
    // The handler declares elicitation; the tests below answer by hand (relayInputRequired).
    client = createClient({
      name: 'front',
      version: '1',
      era: 'modern',
      handlers: { elicitation: async () => ({ action: 'decline' }) },
    });
    await client.connect(streamableHttp(front.url));
  });

  afterAll(async () => {
    await client?.close();
    await front?.close();
    gateway?.close();
    await host?.close();
  });

  it('reports each failure on its own server and connects the rest', () => {
    expect(status('ok').state).toBe('ready');
    expect(status('stalling').state).toBe('ready');
    expect(status('exits')).toMatchObject({ state: 'failed', reason: expect.stringMatching(/code 3/) });
    // Its stdout line is skipped (launchers print such lines); the failure names it.
    expect(status('junk')).toMatchObject({
      state: 'failed',
      reason: expect.stringMatching(/did not become ready.*not JSON-RPC: "hello, not JSON-RPC"/),
    });
    expect(status('missing')).toMatchObject({
      state: 'failed',
      reason: expect.stringMatching(/nonexistent\/mcp-server/),
    });
  });

  it('leaves out names that collide after namespacing, saying so on the later server', () => {
    expect(status('twin').state).toBe('ready');
    expect(status('twin').issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/tool 'echo' is named 'echo' after namespacing, like server 'ok'; left out/),
      ]),
    );
    expect(host.tools().find((t) => t.name === 'echo')?.server).toBe('ok');
  });

  it('names the server in a call to a failed one, and keeps serving', async () => {
    await expect(host.readResource('nothing://here')).rejects.toThrow(
      "no server offers the resource 'nothing://here'",
    );
    const echo = await host.callTool('echo', { text: 'still here' });
    expect(JSON.stringify(echo.content)).toContain('still here');
  });

  it('times out a call the backend never answers, and keeps serving', async () => {
    await expect(host.callTool('stall', {}, { timeoutMs: 200 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const through = await client.callTool('stall');
    expect(through.isError).toBe(true);
    expect(JSON.stringify(through.content)).toMatch(/server 'stalling': TIMEOUT/);
    expect((await host.callTool('ok')).content).toEqual([{ type: 'text', text: 'ok' }]);
  });

  it('expires a parked request nobody answers; a late retry is refused', async () => {
    const first = await relayRequest(
      client,
      { method: 'tools/call', params: { name: 'ask_then_stall', arguments: {} } },
      { relayInputRequired: true },
    );
    expect(first.resultType).toBe('input_required');
    const [key] = Object.keys(first.inputRequests as object);
    expect(key).toMatch(/^gw\.[0-9a-f]{32}\.1$/);
    expect(gateway.parkedCalls).toBe(1);
    await vi.waitFor(() => expect(gateway.parkedCalls).toBe(0), { timeout: 5_000 });
    const late = client.request('tools/call', {
      name: 'ask_then_stall',
      arguments: {},
      inputResponses: { [key as string]: { action: 'accept', content: { name: 'Ada' } } },
      requestState: first.requestState,
    });
    await expect(late).rejects.toBeInstanceOf(WireError);
    await expect(late).rejects.toThrow(/unknown or expired/);
  });

  it('answers a retry whose backend then never answers with an error naming the server', async () => {
    const first = await relayRequest(
      client,
      { method: 'tools/call', params: { name: 'ask_then_stall', arguments: {} } },
      { relayInputRequired: true },
    );
    const [key] = Object.keys(first.inputRequests as object);
    const retry = await client.request('tools/call', {
      name: 'ask_then_stall',
      arguments: {},
      inputResponses: { [key as string]: { action: 'accept', content: { name: 'Ada' } } },
      requestState: first.requestState,
    });
    expect(retry.isError).toBe(true);
    expect(JSON.stringify(retry.content)).toMatch(/server 'stalling': TIMEOUT/);
    expect(gateway.parkedCalls).toBe(0);
  });
});
