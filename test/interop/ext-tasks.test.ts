/**
 * The official Tasks client (`@modelcontextprotocol/ext-tasks`) on top of the official v2
 * SDK client, pinned to 2026-07-28, completes tasks on our everything server over
 * Streamable HTTP: one with an `input_required` round (`confirm_delete`), and one that
 * fails with a JSON-RPC error. Its raw V2 dispatch is a plain fetch with the standard
 * headers, as its adapter documentation asks.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, type RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../src/integrations/node/index.js';
import { createEverythingServer } from '../../servers/everything/server.js';

const VERSION = '2026-07-28';
const CLIENT_INFO = { name: 'ext-tasks-interop', version: '1.0.0' };

function rawDispatch(url: string): RawClientDispatch {
  let id = 1;
  return async (request) => {
    const body = { jsonrpc: '2.0', id: id++, ...(request as Record<string, unknown>) } as unknown as {
      method: string;
      params?: { taskId?: string; name?: string };
    };
    const name = body.params?.taskId ?? body.params?.name;
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': VERSION,
        'mcp-method': body.method,
        ...(name === undefined ? {} : { 'mcp-name': name }),
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const data = response.headers.get('content-type')?.includes('text/event-stream')
      ? lastEvent(text)
      : JSON.parse(text);
    return 'error' in data ? { kind: 'error', error: data.error } : { kind: 'result', result: data.result };
  };
}

/** The last JSON-RPC response in an SSE body. */
function lastEvent(text: string): Record<string, unknown> {
  const events = text
    .split('\n')
    .filter((l) => l.startsWith('data:') && l.length > 5)
    .map((l) => JSON.parse(l.slice(5)) as Record<string, unknown>);
  return events.filter((e) => 'result' in e || 'error' in e).at(-1) ?? {};
}

describe('the official ext-tasks client against our server', () => {
  let served: Served;
  let client: Client;

  beforeAll(async () => {
    served = await serve(createEverythingServer({ tasks: { pollIntervalMs: 50 } }), { port: 0 });
    client = new Client(CLIENT_INFO, {
      capabilities: { elicitation: {} },
      versionNegotiation: { mode: { pin: VERSION } },
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
  });

  afterAll(async () => {
    await client?.close();
    await served?.close();
  });

  function session(asked: string[]) {
    return createTaskSessionFromClient(client, {
      endpointId: served.url,
      rawDispatch: rawDispatch(served.url),
      v2RequestFraming: {
        protocolVersion: VERSION,
        clientInfo: CLIENT_INFO,
        clientCapabilities: { elicitation: {} },
      },
      onInputRequest: async (request) => {
        asked.push(String(request.params?.message));
        return { action: 'accept', content: { confirm: true } } as never;
      },
    });
  }

  it('completes a task through one input_required round', async () => {
    const asked: string[] = [];
    const tasks = session(asked);
    try {
      const execution = await tasks.callTool('confirm_delete', { filename: 'notes.txt' });
      expect(execution.kind).toBe('task');
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('completed');
      expect(outcome.status === 'completed' && outcome.result).toMatchObject({
        content: [{ type: 'text', text: 'Deleted notes.txt' }],
      });
      expect(asked).toEqual(['Delete notes.txt?']);
    } finally {
      await tasks.close();
    }
  });

  it('reports a task that failed with a JSON-RPC error', async () => {
    const tasks = session([]);
    try {
      const execution = await tasks.callTool('protocol_error_job', {});
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('failed');
      expect(outcome.status === 'failed' && outcome.error.code).toBe(-32603);
    } finally {
      await tasks.close();
    }
  });
});
