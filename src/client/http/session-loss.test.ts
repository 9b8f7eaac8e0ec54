import { afterEach, describe, expect, it } from 'vitest';
import { createHttpHandler, type HttpHandler } from '../../server/http/index.js';
import { createServer } from '../../server/index.js';
import { createClient } from '../index.js';
import { streamableHttp } from './index.js';
import { until } from '../../../test/support/wait.js';

interface Seen {
  method: string;
  session: string | null;
  body: { method?: string; id?: unknown } | undefined;
  status: number;
}

/**
 * A real mcpkit server behind a fetch that can "restart" it: a new handler for the same
 * definition, which knows none of the old sessions (and answers them 404).
 */
function restartableServer() {
  const server = createServer({ name: 'restartable', version: '1' });
  server.tool('echo', { description: 'echo' }, (args: Record<string, unknown>) => String(args.text));
  server.resource('test://a', {}, (uri) => [{ uri, text: 'A' }]);
  let handler: HttpHandler = createHttpHandler(server);
  const seen: Seen[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const text = request.method === 'POST' ? await request.clone().text() : '';
    const response = await handler(request);
    const body = text === '' ? undefined : (JSON.parse(text) as Seen['body']);
    seen.push({
      method: request.method,
      session: request.headers.get('mcp-session-id'),
      body,
      status: response.status,
    });
    return response;
  };
  const restart = (): void => {
    handler.close();
    handler = createHttpHandler(server);
  };
  return { fetch: fetch as typeof globalThis.fetch, seen, restart, close: () => handler.close() };
}

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function connected(logLevel?: 'debug') {
  const s = restartableServer();
  const warnings: string[] = [];
  const transport = streamableHttp('http://127.0.0.1:1/mcp', {
    fetch: s.fetch,
    onWarning: (m) => warnings.push(m),
  });
  const client = createClient({ name: 'c', version: '1', era: 'legacy', ...(logLevel ? { logLevel } : {}) });
  await client.connect(transport);
  closers.push(() => client.close(), s.close);
  return { ...s, client, warnings };
}

const posts = (seen: Seen[]) => seen.filter((r) => r.method === 'POST' && r.body?.method !== undefined);

describe('a legacy server that lost the session (2025-11-25 Session Management item 4)', () => {
  it('is re-initialized without a session id, and the refused call is retried once on the new session', async () => {
    const { client, seen, restart, warnings } = await connected();
    expect((await client.callTool('echo', { text: 'before' })).content).toEqual([
      { type: 'text', text: 'before' },
    ]);
    const oldSession = posts(seen).at(-1)?.session;
    restart();
    const from = seen.length;
    expect((await client.callTool('echo', { text: 'after' })).content).toEqual([
      { type: 'text', text: 'after' },
    ]);
    const after = posts(seen.slice(from));
    expect(after.map((r) => [r.body?.method, r.status])).toEqual([
      ['tools/call', 404],
      ['initialize', 200],
      ['notifications/initialized', 202],
      ['tools/call', 200],
    ]);
    expect(after[0]?.session).toBe(oldSession);
    expect(after[1]?.session).toBeNull();
    const newSession = after[2]?.session;
    expect(newSession).toBeTruthy();
    expect(newSession).not.toBe(oldSession);
    expect(after[3]?.session).toBe(newSession);
    expect(warnings.join('\n')).toMatch(/lost the legacy session/);
  });

  it('stays usable afterwards, and repeats the log level and resource subscriptions on the new session', async () => {
    const { client, seen, restart } = await connected('debug');
    await client.subscribeResource('test://a');
    restart();
    const from = seen.length;
    await client.listTools();
    expect(await client.readResource('test://a')).toMatchObject({ contents: [{ text: 'A' }] });
    const methods = posts(seen.slice(from)).map((r) => r.body?.method);
    expect(methods).toEqual([
      'tools/list',
      'initialize',
      'notifications/initialized',
      'logging/setLevel',
      'resources/subscribe',
      'tools/list',
      'resources/read',
    ]);
  });

  it('renews the session when its GET stream is refused with 404, so later calls go straight through', async () => {
    const { client, seen, restart } = await connected();
    await client.listTools();
    restart(); // the old GET stream ends; its reconnect carries the lost session id
    await until(() =>
      posts(seen).some((r) => r.body?.method === 'initialize' && r.session === null && seen.indexOf(r) > 2),
    );
    const from = seen.length;
    await client.listTools();
    expect(posts(seen.slice(from)).map((r) => [r.body?.method, r.status])).toEqual([['tools/list', 200]]);
  });
});
