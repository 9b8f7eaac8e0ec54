/**
 * The load generator's HTTP end: raw JSON-RPC POSTs over node:http keep-alive
 * connections. A reply may come back as a JSON body or as an SSE stream; both are read.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { Reply } from './protocol.js';
import { SseReader } from './sse.js';

/** What one exchange returned. */
export interface Exchange {
  status: number;
  headers: IncomingHttpHeaders;
  /** Every JSON-RPC message in the body (one for a JSON body; each event of a stream). */
  messages: Reply[];
}

const BASE_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A pool of keep-alive connections to one endpoint. */
export class HttpPeer {
  readonly url: URL;
  readonly #agent: Agent;

  /** `maxSockets` bounds the connections (one per request in flight). */
  constructor(url: string, maxSockets: number) {
    this.url = new URL(url);
    this.#agent = new Agent({ keepAlive: true, maxSockets });
  }

  /** POSTs `body` (a JSON-RPC message) with extra `headers`; resolves with the whole reply. */
  post(body: object, headers: Record<string, string>): Promise<Exchange> {
    return this.exchange('POST', JSON.stringify(body), headers);
  }

  /** Sends one request and reads the whole response. */
  exchange(method: string, body: string | undefined, headers: Record<string, string>): Promise<Exchange> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(this.url, {
        method,
        agent: this.#agent,
        headers: { ...BASE_HEADERS, ...headers },
      });
      req.on('response', (res) => readAll(res).then(resolve, reject));
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Closes the pooled connections. */
  close(): void {
    this.#agent.destroy();
  }
}

async function readAll(res: IncomingMessage): Promise<Exchange> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const type = res.headers['content-type'] ?? '';
  let messages: Reply[] = [];
  if (type.includes('text/event-stream')) messages = new SseReader().push(text + '\n\n') as Reply[];
  else if (type.includes('application/json') && text !== '') messages = [JSON.parse(text) as Reply];
  return { status: res.statusCode ?? 0, headers: res.headers, messages };
}

/** An open streaming response (a `subscriptions/listen` stream). */
export interface OpenStream {
  status: number;
  /** Ends the stream (destroys its connection). */
  close(): void;
}

/**
 * POSTs `body` on a connection of its own and calls `onMessage` for each SSE event as it
 * arrives; resolves once the response headers are in.
 */
export function openStream(
  url: string,
  body: object,
  headers: Record<string, string>,
  onMessage: (message: Reply) => void,
): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent: false, headers: { ...BASE_HEADERS, ...headers } });
    req.on('response', (res) => {
      const reader = new SseReader();
      res.setEncoding('utf8');
      res.on('data', (text: string) => reader.push(text).forEach((m) => onMessage(m as Reply)));
      res.on('error', () => undefined);
      resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
