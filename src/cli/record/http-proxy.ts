/**
 * `mcpkit record URL`: an HTTP proxy on loopback that forwards every request to the
 * server's origin unchanged (same path and query) and streams the answer back, recording
 * the JSON-RPC messages of both (JSON bodies and SSE `data` events) with headers redacted.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createParser } from 'eventsource-parser';
import { CliError } from '../errors.js';
import type { Front } from '../host-args.js';
import { signalled } from '../signals.js';
import { RecordingWriter } from './writer.js';
import { redactHeaders } from './format.js';

/** Largest request body forwarded, in bytes. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Request headers not forwarded: hop-by-hop, or set again by fetch for the server's origin. */
const DROPPED_REQUEST = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'accept-encoding',
]);
/** Response headers not passed back: fetch has already decoded and de-chunked the body. */
const DROPPED_RESPONSE = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

/** What {@link recordHttp} needs. */
interface HttpRecording {
  url: string;
  headers: Record<string, string>;
  out: string;
  front: Front;
}

/** Serves the proxy until SIGINT/SIGTERM; resolves with exit code 0 once the file is flushed. */
export async function recordHttp(options: HttpRecording): Promise<number> {
  const target = new URL(options.url);
  const writer = new RecordingWriter(options.out, { transport: 'http', server: target.href });
  const server = createServer((req, res) => {
    forward(req, res, { target, extra: options.headers, writer }).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`mcpkit record: ${(error as Error).message}`);
    });
  });
  const host = options.front.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(new CliError(`cannot listen on ${host}: ${error.message}`, { kind: 'connection' })),
    );
    server.listen(options.front.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const local = new URL(
    `${target.pathname}${target.search}`,
    `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
  );
  process.stderr.write(
    `mcpkit: recording ${target.origin} to ${options.out}; point the client at ${local.href} (Ctrl-C to stop)\n`,
  );
  await signalled();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await writer.close();
  return 0;
}

interface Hop {
  target: URL;
  extra: Record<string, string>;
  writer: RecordingWriter;
}

async function forward(req: IncomingMessage, res: ServerResponse, hop: Hop): Promise<void> {
  const body = await readBody(req);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || DROPPED_REQUEST.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  for (const [name, value] of Object.entries(hop.extra)) headers.set(name, value);
  if (body.length > 0)
    hop.writer.write('client', body.toString('utf8'), {
      method: req.method ?? 'POST',
      headers: redactHeaders(entries(headers)),
    });
  const abort = new AbortController();
  res.once('close', () => abort.abort());
  const answer = await fetch(new URL(req.url ?? '/', hop.target.origin), {
    method: req.method ?? 'GET',
    headers,
    redirect: 'manual',
    signal: abort.signal,
    ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
  });
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!DROPPED_RESPONSE.has(name)) out[name] = value;
  });
  res.writeHead(answer.status, out);
  const http = { status: answer.status, headers: redactHeaders(entries(answer.headers)) };
  await relayBody(answer, res, { writer: hop.writer, http });
}

async function relayBody(
  answer: Response,
  res: ServerResponse,
  record: { writer: RecordingWriter; http: { status: number; headers: Record<string, string> } },
): Promise<void> {
  const type = answer.headers.get('content-type') ?? '';
  const isSse = type.includes('text/event-stream');
  const isJson = type.includes('json');
  const parser = isSse
    ? createParser({
        onEvent: (event) => event.data && record.writer.write('server', event.data, record.http),
      })
    : undefined;
  const decoder = new TextDecoder();
  let json = '';
  if (answer.body) {
    for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
      res.write(chunk);
      if (parser) parser.feed(decoder.decode(chunk, { stream: true }));
      else if (isJson && json.length <= MAX_BODY_BYTES) json += decoder.decode(chunk, { stream: true });
    }
  }
  if (isJson && json.trim() !== '') record.writer.write('server', json, record.http);
  res.end();
}

function entries(headers: Headers): [string, string][] {
  const out: [string, string][] = [];
  headers.forEach((value, name) => out.push([name, value]));
  return out;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.destroy();
        reject(new Error(`request body over ${MAX_BODY_BYTES} bytes`));
      } else chunks.push(chunk);
    });
    req.once('error', reject);
    req.once('end', () => resolve(Buffer.concat(chunks)));
  });
}
