/**
 * Internal errors are not silent, and one disclosure rule holds for every feature: a
 * handler's exception reaches the client as -32603 "Internal error" without details (a
 * resource, a prompt, a tool result failing its outputSchema), except a tool's exception,
 * which the spec puts in an `isError` result so the model can recover (its message only,
 * never the stack). Either way the cause is logged: one line on stderr by default, or
 * `onError` in its place. Over the linked pair (the stdio path) and over HTTP, both eras.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, streamableHttp } from '../client/index.js';
import type { JsonRpcRequest } from '../core/index.js';
import { serve } from '../integrations/node/index.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { connect, createServer, type ServerOptions } from './index.js';
import { internalErrorLine } from './internal-error.js';

const SECRET = 'connect ECONNREFUSED 10.0.0.7:5432';

function faulty(options: Partial<ServerOptions> = {}) {
  const server = createServer({ name: 's', version: '1', ...options });
  server.resource('db://rows', { name: 'rows' }, () => {
    throw new Error(SECRET);
  });
  server.prompt('summary', {}, () => {
    throw new Error(SECRET);
  });
  server.tool('fetch_rows', {}, () => {
    throw new Error(SECRET);
  });
  server.tool(
    'typed',
    { outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
    () => ({ content: [], structuredContent: { n: 'not a number' } }),
  );
  return server;
}

async function linked(options: Partial<ServerOptions>, era: 'modern' | 'legacy') {
  const [a, b] = createLinkedPair();
  await connect(faulty(options), b);
  const client = createClient({ name: 'c', version: '1', era });
  await client.connect(a);
  return { client, close: () => client.close() };
}

async function overHttp(options: Partial<ServerOptions>, era: 'modern' | 'legacy') {
  const served = await serve(faulty(options), { port: 0 });
  const client = createClient({ name: 'c', version: '1', era });
  await client.connect(streamableHttp(served.url));
  return { client, close: async () => (await client.close(), await served.close()) };
}

afterEach(() => vi.restoreAllMocks());

describe.each([
  ['linked pair', linked],
  ['HTTP', overHttp],
] as const)('internal errors over the %s', (_, open) => {
  describe.each(['modern', 'legacy'] as const)('%s', (era) => {
    it('answers -32603 without details to a failing resource, prompt and outputSchema, and logs each cause on one stderr line', async () => {
      const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const { client, close } = await open({}, era);
      const failures = await Promise.all([
        client.readResource('db://rows').catch((e: unknown) => e),
        client.getPrompt('summary').catch((e: unknown) => e),
        client.callTool('typed', {}).catch((e: unknown) => e),
      ]);
      for (const failure of failures) {
        expect(failure).toMatchObject({ code: -32603, message: 'Internal error' });
        expect(JSON.stringify(failure)).not.toContain('10.0.0.7');
      }
      await close();
      const lines = stderr.mock.calls.map((call) => String(call[0]));
      expect(lines).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /^mcpkit server: internal error in resources\/read 'db:\/\/rows': Error: connect ECONNREFUSED 10\.0\.0\.7:5432 \(at /,
          ),
          expect.stringMatching(
            /^mcpkit server: internal error in prompts\/get 'summary': Error: connect ECONNREFUSED/,
          ),
          expect.stringMatching(
            /internal error in tools\/call 'typed': LocalError: Tool typed returned structuredContent that does not match its outputSchema/,
          ),
        ]),
      );
      for (const line of lines) expect(line).not.toContain('\n');
    });

    it("puts a tool's exception in an isError result with its message, never its stack, and logs the cause", async () => {
      const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const { client, close } = await open({}, era);
      const result = (await client.callTool('fetch_rows', {})) as {
        isError?: boolean;
        content: { text: string }[];
      };
      await close();
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toBe(`Tool fetch_rows failed: ${SECRET}`);
      expect(JSON.stringify(result)).not.toMatch(/\bat .*:\d+:\d+/);
      expect(stderr.mock.calls.map((c) => String(c[0]))).toEqual([
        expect.stringMatching(
          /^mcpkit server: internal error in tools\/call 'fetch_rows': Error: connect ECONNREFUSED/,
        ),
      ]);
    });

    it('gives each cause to onError instead, and then writes nothing on stderr', async () => {
      const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const seen: [unknown, JsonRpcRequest | undefined][] = [];
      const { client, close } = await open({ onError: (error, request) => seen.push([error, request]) }, era);
      await client.readResource('db://rows').catch(() => undefined);
      await client.callTool('fetch_rows', {});
      await close();
      expect(stderr).not.toHaveBeenCalled();
      expect(seen.map(([error, request]) => [(error as Error).message, request?.method])).toEqual([
        [SECRET, 'resources/read'],
        [SECRET, 'tools/call'],
      ]);
    });
  });
});

describe('internalErrorLine', () => {
  it('is one bounded line, whatever the message holds', () => {
    const line = internalErrorLine(new Error(`a\nb\r\n${'x'.repeat(5000)}`), {
      method: 'tools/call',
      params: { name: 't' },
    });
    expect(line).not.toMatch(/[\r\n]/);
    expect(line.length).toBeLessThanOrEqual(1000);
    expect(internalErrorLine('plain', undefined)).toBe('mcpkit server: internal error: thrown plain');
  });
});
