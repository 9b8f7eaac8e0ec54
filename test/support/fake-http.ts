/**
 * A tiny scripted HTTP server on a random loopback port, for tests that need a peer to
 * misbehave in one exact way (a bad metadata document, a refusing token endpoint).
 * Routes are `METHOD /path` → a function answering with status, headers and a JSON body.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer. */
export interface FakeAnswer {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
}

/** A request the fake received. */
export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A running fake server. */
export interface FakeHttp {
  origin: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

/** Starts a fake answering `routes` (404 for anything else); `base` is its origin. */
export async function startFake(
  routes: (base: string) => Record<string, (r: FakeRequest) => FakeAnswer>,
): Promise<FakeHttp> {
  const requests: FakeRequest[] = [];
  let table: Record<string, (r: FakeRequest) => FakeAnswer> = {};
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const request = { method: req.method ?? 'GET', path, headers: req.headers, body };
      requests.push(request);
      const route = table[`${request.method} ${path}`];
      const answer = route ? route(request) : { status: 404, json: { error: 'not_found' } };
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.json === undefined ? '' : JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  table = routes(origin);
  return {
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
