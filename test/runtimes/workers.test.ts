/**
 * mcpkit/cloudflare under `wrangler dev` (workerd from npm, no nodejs_compat), with the
 * everything Worker of examples/workers: a modern task that completes after its response
 * (ctx.waitUntil, tasks in Durable Objects), a legacy elicitation answered in another POST
 * (the session's Durable Object holds it), list changes delivered to the session's GET
 * stream, and an unknown session answered 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev, type WranglerDev } from '../support/wrangler.js';

let wrangler: WranglerDev | undefined;
let url = '';

beforeAll(async () => {
  wrangler = await startWranglerDev('examples/workers/wrangler.jsonc');
  url = `${wrangler.origin}/mcp`;
}, 90_000);

afterAll(async () => {
  await wrangler?.stop();
});

type Json = Record<string, unknown>;
const MODERN = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

function post(body: Json, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...body }),
  });
}

/** The JSON-RPC messages of a response (JSON or SSE), read until `until` holds for one. */
async function messages(response: Response, until: (m: Json) => boolean = () => false): Promise<Json[]> {
  if (!response.headers.get('content-type')?.includes('text/event-stream'))
    return [(await response.json()) as Json];
  const reader = response.body!.getReader();
  const seen: Json[] = [];
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return seen;
    text += new TextDecoder().decode(value);
    const lines = text.split('\n');
    text = lines.pop() ?? '';
    // Complete lines only; an empty `data:` is the stream's priming event.
    for (const line of lines)
      if (line.startsWith('data: ') && line.length > 6) seen.push(JSON.parse(line.slice(6)) as Json);
    if (seen.some(until)) {
      await reader.cancel();
      return seen;
    }
  }
}

async function modern(method: string, params: Json, name?: string): Promise<Json> {
  const headers: Record<string, string> = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method };
  if (name) headers['mcp-name'] = name;
  const [reply] = await messages(
    await post({ id: 1, method, params: { ...params, _meta: MODERN } }, headers),
  );
  return reply!;
}

async function openSession(): Promise<string> {
  const response = await post({
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: { form: {} } },
      clientInfo: { name: 'workers-test', version: '1' },
    },
  });
  const session = response.headers.get('mcp-session-id')!;
  await response.body?.cancel();
  const legacy = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  await (await post({ method: 'notifications/initialized' }, legacy)).body?.cancel();
  return session;
}

describe('mcpkit/cloudflare under wrangler dev', () => {
  it('completes a modern task after its response (ctx.waitUntil, tasks in Durable Objects)', async () => {
    const created = await modern(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0.3, label: 'pi' } },
      'slow_compute',
    );
    const taskId = (created.result as Json).taskId as string;
    expect((created.result as Json).resultType).toBe('task');
    let task: Json = {};
    for (let polls = 0; polls < 100 && task.status !== 'completed'; polls++)
      task = (await modern('tasks/get', { taskId }, taskId)).result as Json;
    expect(task).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'Computed pi after 0.3s' }] },
    });
  });

  it('keeps a legacy session in its Durable Object: an elicitation answered in another POST', async () => {
    const session = await openSession();
    expect(session).toMatch(/^[0-9a-f]{64}\.\S+$/);
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const params = { name: 'test_elicitation', arguments: { message: 'who?' } };
    const call = await post({ id: 7, method: 'tools/call', params }, headers);
    const answered = new Set<unknown>();
    const seen = await messages(call, (m) => {
      if (m.method === 'elicitation/create' && !answered.has(m.id)) {
        answered.add(m.id);
        const result = { action: 'accept', content: { username: 'workerd', email: 'w@example.com' } };
        void post({ id: m.id, result }, headers).then((r) => r.body?.cancel());
      }
      return m.id === 7;
    });
    expect(answered.size).toBe(1);
    expect(JSON.stringify(seen.at(-1))).toContain('workerd');
  });

  it("delivers list changes to the session's GET stream", async () => {
    const session = await openSession();
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const stream = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const changed = messages(stream, (m) => m.method === 'notifications/tools/list_changed');
    const trigger = await post(
      { id: 8, method: 'tools/call', params: { name: 'test_trigger_tool_change' } },
      headers,
    );
    await messages(trigger, (m) => m.id === 8);
    expect((await changed).map((m) => m.method)).toContain('notifications/tools/list_changed');
  });

  it('answers 404 for a session whose Durable Object does not hold it', async () => {
    const forged = `${'0'.repeat(64)}.nope`;
    const response = await post(
      { id: 9, method: 'tools/list' },
      { 'mcp-session-id': forged, 'mcp-protocol-version': '2025-11-25' },
    );
    expect(response.status).toBe(404);
    expect(((await response.json()) as Json).error).toMatchObject({ code: -32600 });
  });
});
