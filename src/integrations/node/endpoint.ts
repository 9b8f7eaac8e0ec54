/**
 * node:http straight to the endpoint's request/response shapes: no web `Request` or
 * `Response` is built per call (on Node 20 those cost more than the rest of a small MCP
 * call together). Only converts; all MCP behaviour stays in the endpoint.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpEndpoint, HttpRequest, HttpResponse, BodyResult } from '../../server/http/index.js';
import type { NodeListener } from './listener.js';
import { pipeBody, readBody } from './listener.js';

const utf8 = new TextDecoder('utf-8');

/** An {@link HttpRequest} over a node request; the signal aborts when the client goes away. */
class NodeRequest implements HttpRequest {
  readonly #req: IncomingMessage;
  readonly signal: AbortSignal;
  readonly headers: { get(name: string): string | null };

  constructor(req: IncomingMessage, signal: AbortSignal) {
    this.#req = req;
    this.signal = signal;
    const raw = req.headers;
    this.headers = {
      get(name) {
        const value = raw[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    };
  }

  get method(): string {
    return this.#req.method ?? 'GET';
  }

  get url(): string {
    return `http://${this.#req.headers.host ?? 'localhost'}${this.#req.url ?? '/'}`;
  }

  async body(maxBytes: number): Promise<BodyResult> {
    const bytes = await readBody(this.#req, maxBytes);
    return bytes === undefined ? { kind: 'too-large' } : { kind: 'text', text: utf8.decode(bytes) };
  }
}

/** Writes an endpoint response: a text body in one write with its length, a stream as it comes. */
export async function writeResponse(
  response: HttpResponse,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  const { body } = response;
  if (body === null || typeof body === 'string') {
    const headers =
      body === null
        ? response.headers
        : { ...response.headers, 'content-length': String(Buffer.byteLength(body)) };
    res.writeHead(response.status, headers).end(body ?? undefined);
    return;
  }
  res.writeHead(response.status, response.headers);
  res.flushHeaders();
  await pipeBody(body, res, signal).catch(() => undefined); // the client went away mid-stream
  res.end();
}

/** Adapts an endpoint (from `createHttpEndpoint`) to node:http. */
export function toEndpointListener(endpoint: HttpEndpoint): NodeListener {
  return (req, res) => {
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort(new Error('client disconnected'));
    });
    void endpoint
      .handle(new NodeRequest(req, controller.signal))
      .then((response) => writeResponse(response, res, controller.signal))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  };
}
