/**
 * The middleware seam end to end: a logging middleware, a rate limiter answering with a
 * JSON-RPC error, one adding `_meta`, and one that cancels — on the client and on the
 * server, over stdio (server in a child process) and Streamable HTTP, on both eras.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireError, LocalError } from '../../src/core/index.js';
import { createClient, type Client } from '../../src/client/index.js';
import { spawnStdio } from '../../src/integrations/stdio/index.js';
import { serve, type Served } from '../../src/integrations/node/index.js';
import { middlewareServer } from '../support/middleware-server.js';
import {
  addMeta,
  cancelOnProgress,
  logging,
  rateLimit,
  RATE_LIMITED,
  type LogEntry,
} from '../support/middleware.js';

const FIXTURE = new URL('../../dist/test/support/middleware-server.js', import.meta.url).pathname;

const CASES = [
  { transport: 'stdio', era: 'modern' },
  { transport: 'stdio', era: 'legacy' },
  { transport: 'http', era: 'modern' },
  { transport: 'http', era: 'legacy' },
] as const;

function textOf(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as { text?: string }[];
  return first?.text ?? '';
}

describe.each(CASES)('middleware over $transport, $era era', ({ transport, era }) => {
  const clientLog: LogEntry[] = [];
  const serverLog: LogEntry[] = [];
  let client: Client;
  let served: Served | undefined;

  beforeAll(async () => {
    client = createClient({
      name: 'middleware-test',
      version: '1.0.0',
      era,
      middleware: [
        logging(clientLog),
        rateLimit('limited-locally', 1),
        addMeta('example.com/trace', 'client-middleware'),
        cancelOnProgress('slow'),
      ],
    });
    if (transport === 'stdio') {
      await client.connect(spawnStdio({ command: process.execPath, args: [FIXTURE] }));
    } else {
      served = await serve(middlewareServer(serverLog), { port: 0 });
      const { streamableHttp } = await import('../../src/client/index.js');
      await client.connect(streamableHttp(served.url));
    }
  });

  afterAll(async () => {
    await client?.close();
    await served?.close();
  });

  it('logs every request with its era on both sides, timed', async () => {
    const result = await client.callTool('log', {});
    const seenByServer = JSON.parse(textOf(result)) as string[];
    expect(seenByServer).toContain(`server incoming request tools/call(log) ${era}`);
    expect(seenByServer).toContain(`server incoming request tools/list ${era}`);
    if (era === 'legacy') {
      expect(seenByServer).toContain('server incoming request initialize legacy');
      expect(seenByServer).toContain('server incoming notification notifications/initialized legacy');
    }
    const lines = clientLog.map((e) => e.line);
    expect(lines).toContain(`client outgoing request tools/call(log) ${era}`);
    expect(lines).toContain(
      era === 'modern'
        ? 'client outgoing request tools/list modern'
        : 'client outgoing request initialize unsettled',
    );
    const timed = clientLog.filter((e) => e.line.includes('request') && !e.line.includes('(log)'));
    expect(timed.every((e) => typeof e.ms === 'number' && e.ms >= 0)).toBe(true);
  });

  it('a server rate limiter answers with its JSON-RPC error and the connection keeps serving', async () => {
    expect(textOf(await client.callTool('limited', {}))).toBe('ok');
    expect(textOf(await client.callTool('limited', {}))).toBe('ok');
    const refused = await client.callTool('limited', {}).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WireError);
    expect((refused as WireError).code).toBe(RATE_LIMITED);
    expect((refused as WireError).data).toEqual({ max: 2 });
    expect(textOf(await client.callTool('log', {}))).toContain('tools/call');
  });

  it('a client rate limiter answers locally, without sending', async () => {
    await client.callTool('limited-locally', {}).catch(() => undefined);
    const refused = await client.callTool('limited-locally', {}).catch((e: unknown) => e);
    expect((refused as WireError).code).toBe(RATE_LIMITED);
    const seenByServer = JSON.parse(textOf(await client.callTool('log', {}))) as string[];
    const line = `server incoming request tools/call(limited-locally) ${era}`;
    expect(seenByServer.filter((l) => l === line)).toHaveLength(1);
  });

  it('_meta added by client middleware reaches the handler; server middleware adds _meta to results', async () => {
    const result = await client.callTool('echo-meta', {});
    const meta = JSON.parse(textOf(result)) as Record<string, unknown>;
    expect(meta['example.com/trace']).toBe('client-middleware');
    if (era === 'modern') expect(meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    expect(result._meta?.['example.com/served-by']).toBe('server-middleware');
  });

  it('a server middleware answering a request without a result object sends an empty result', async () => {
    expect(await client.request('tools/call', { name: 'hollow' })).toEqual({});
  });

  it('server middleware cancels a call: the handler runs with its signal aborted', async () => {
    const result = await client.callTool('doomed', {});
    expect(textOf(result)).toBe('aborted: Error: cancelled by middleware');
  });

  it('client middleware cancels a call on the wire when the server reports progress', async () => {
    const outcome = await client
      .callTool('slow', {}, { onprogress: () => undefined })
      .catch((e: unknown) => e);
    expect(outcome).toBeInstanceOf(LocalError);
    expect((outcome as LocalError).code).toBe('ABORTED');
    expect(textOf(await client.callTool('wait-cancelled', {}))).toBe('slow was cancelled');
    expect(clientLog.map((e) => e.line)).toContain(
      `client incoming notification notifications/progress ${era}`,
    );
  });
});
