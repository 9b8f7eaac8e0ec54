/**
 * Seeded fuzzing of what arrives from the wire: stdio framing, the JSON-RPC envelope, SSE
 * parsing and HTTP headers (`Mcp-Name` encodings included). Properties: nothing throws past
 * the transport or the handler, errors are well-formed, and a normal request afterwards is
 * still answered correctly.
 */
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkEnvelope, decodeFrame, encodeHeaderValue } from '../../src/core/runtime.js';
import type { JsonRpcMessage } from '../../src/core/index.js';
import { newCursor, readSse } from '../../src/client/http/sse.js';
import { stdioServerTransport } from '../../src/integrations/stdio/index.js';
import { connect, createServer, type McpServer } from '../../src/server/index.js';
import { createHttpHandler } from '../../src/server/http/index.js';
import { modernBody, modernHeaders } from '../support/http-harness.js';
import { fuzzRuns, junk } from '../support/fuzz.js';

function buildServer(): McpServer {
  const server = createServer({ name: 'fuzzed', version: '1.0.0' });
  server.tool('echo', { description: 'Echo', inputSchema: { type: 'object' } }, (args) =>
    String((args as { text?: unknown }).text ?? ''),
  );
  return server;
}
const server = buildServer();
const ECHO = `${JSON.stringify(modernBody('tools/call', { name: 'echo', arguments: { text: 'ok' } }, 'final'))}\n`;

/** Splits `bytes` at the given cut points. */
function cut(bytes: Uint8Array, points: number[]): Uint8Array[] {
  const sorted = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const p of sorted) {
    chunks.push(bytes.subarray(at, p));
    at = p;
  }
  chunks.push(bytes.subarray(at));
  return chunks;
}

describe('stdio framing', () => {
  it('any junk, split anywhere, then a request line: the request is answered', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(junk, { maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (lines, points) => {
          const stdin = new PassThrough();
          const stdout = new PassThrough();
          let out = '';
          stdout.on('data', (c: Buffer) => (out += c.toString()));
          const connection = await connect(server, stdioServerTransport({ stdin, stdout }));
          const bytes = new TextEncoder().encode(`${lines.join('\n')}\n${ECHO}`);
          for (const chunk of cut(bytes, points)) stdin.write(chunk);
          while (!out.includes('"id":"final"')) await new Promise((resolve) => setImmediate(resolve));
          const final = out
            .split('\n')
            .filter((l) => l.includes('"id":"final"'))
            .map((l) => JSON.parse(l) as JsonRpcMessage);
          expect(final).toMatchObject([{ result: { content: [{ type: 'text', text: 'ok' }] } }]);
          for (const line of out.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
          await connection.close();
        },
      ),
      fuzzRuns(0.5),
    );
  });
});

describe('the JSON-RPC envelope', () => {
  it('decodeFrame and checkEnvelope never throw, and every error they build is a JSON-RPC error', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          junk,
          fc.jsonValue({ maxDepth: 5 }).map((v) => JSON.stringify(v)),
        ),
        (text) => {
          const decoded = decodeFrame(text);
          const values =
            decoded.kind === 'batch' ? decoded.values : decoded.kind === 'single' ? [decoded.value] : [];
          if (decoded.kind === 'malformed') expect(decoded.error.error.code).toBeTypeOf('number');
          for (const value of values) {
            const checked = checkEnvelope(value);
            if (checked.kind === 'invalid') expect([-32600, -32700]).toContain(checked.error.error.code);
          }
        },
      ),
      fuzzRuns(5),
    );
  });

  it('envelopes with arbitrary member values get a valid response or none, never a crash', async () => {
    const member = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(undefined));
    const envelope = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), member),
        id: member,
        method: fc.oneof(
          fc.constantFrom(
            'tools/call',
            'tools/list',
            'server/discover',
            'initialize',
            'notifications/cancelled',
          ),
          member,
        ),
        params: member,
        result: member,
        error: member,
      },
      { requiredKeys: [] },
    );
    const handler = createHttpHandler(server);
    await fc.assert(
      fc.asyncProperty(envelope, async (message) => {
        const body = JSON.stringify(message);
        const response = await handler(
          new Request('http://localhost/mcp', {
            method: 'POST',
            body,
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              'mcp-protocol-version': '2026-07-28',
            },
          }),
        );
        expect(response.status).not.toBe(500);
        await response.text();
      }),
      fuzzRuns(1),
    );
    handler.close();
  });
});

describe('SSE parsing', () => {
  const event = fc.record({
    id: fc.option(
      fc.string({ unit: 'grapheme-ascii', maxLength: 8 }).filter((s) => !/[\r\n\0]/.test(s)),
      { nil: undefined },
    ),
    data: fc.string({ maxLength: 60 }).filter((s) => !/[\r\n]/.test(s) && s !== ''),
  });

  it('the same events come out however the stream is split, with the last id kept', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (events, points) => {
          const text = events
            .map((e) => `${e.id === undefined ? '' : `id: ${e.id}\n`}data: ${e.data}\n\n`)
            .join('');
          const chunks = cut(new TextEncoder().encode(text), points);
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              for (const c of chunks) controller.enqueue(c);
              controller.close();
            },
          });
          const cursor = newCursor();
          const seen: string[] = [];
          await readSse(body, cursor, { onData: (d) => seen.push(d) });
          expect(seen).toEqual(events.map((e) => e.data));
          const ids = events.map((e) => e.id).filter((id) => id !== undefined);
          expect(cursor.lastEventId).toBe(ids.at(-1));
        },
      ),
      fuzzRuns(2),
    );
  });

  it('arbitrary bytes never throw anything but the size limit', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 6 }), async (chunks) => {
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            for (const c of chunks) controller.enqueue(c);
            controller.close();
          },
        });
        await expect(
          readSse(body, newCursor(), { onData: () => undefined, maxEventBytes: 256 }).catch(
            (e: { code?: string }) => e.code,
          ),
        ).resolves.toBeOneOf([undefined, 'LIMIT_EXCEEDED']);
      }),
      fuzzRuns(2),
    );
  });
});

describe('HTTP headers', () => {
  const handler = createHttpHandler(server);

  it('any tool name round-trips through the Mcp-Name encoding (no -32020 mismatch)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 40 }), async (name) => {
        const body = modernBody('tools/call', { name, arguments: {} });
        const headers = { ...modernHeaders(body), 'mcp-name': encodeHeaderValue(name) };
        const response = await handler(
          new Request('http://localhost/mcp', { method: 'POST', body: JSON.stringify(body), headers }),
        );
        const json = (await response.json()) as { error?: { code: number } };
        if (name === 'echo') expect(json.error).toBeUndefined();
        else expect(json.error?.code).toBe(-32602);
      }),
      fuzzRuns(2),
    );
  });

  it('arbitrary header values are refused cleanly (400 with -32020 or accepted), never 500', async () => {
    const value = fc.string({
      unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)),
      maxLength: 60,
    });
    await fc.assert(
      fc.asyncProperty(value, value, async (mcpName, version) => {
        const body = modernBody('tools/call', { name: 'echo', arguments: {} });
        const headers = { ...modernHeaders(body), 'mcp-name': mcpName, 'mcp-protocol-version': version };
        let request: Request;
        try {
          request = new Request('http://localhost/mcp', {
            method: 'POST',
            body: JSON.stringify(body),
            headers,
          });
        } catch {
          return; // not a value fetch can send at all
        }
        const response = await handler(request);
        expect(response.status).not.toBe(500);
        await response.text();
      }),
      fuzzRuns(2),
    );
  });
});
