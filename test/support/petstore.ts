/**
 * A small, real implementation of the Swagger Petstore 3.0 API (test/support/fixtures/openapi/
 * petstore3.yaml) on loopback, plus the misbehaving routes of edge.json. It answers JSON,
 * keeps pets, orders and users in memory, records every request it saw, and requires
 * `Authorization: Bearer <token>` when started with a token.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A running Petstore. */
export interface Petstore {
  /** Base URL of the API (`http://127.0.0.1:<port>/v3`). */
  baseUrl: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

/** Starts the Petstore on a random loopback port; `token` turns on bearer authentication. */
export async function startPetstore(options: { token?: string } = {}): Promise<Petstore> {
  const state = {
    pets: new Map<number, Json>([
      [1, { id: 1, name: 'Rex', photoUrls: [], status: 'available', tags: [{ id: 1, name: 'dog' }] }],
    ]),
    orders: new Map<number, Json>(),
    users: new Map<string, Json>(),
  };
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (
        options.token &&
        req.headers.authorization !== `Bearer ${options.token}` &&
        !req.url?.startsWith('/v3/edge/')
      )
        return send(res, 401, { message: 'unauthorized' });
      route(state, { req, res, body, token: options.token });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v3`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, value: unknown, type = 'application/json'): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  body: string;
  token: string | undefined;
}

function route(
  state: { pets: Map<number, Json>; orders: Map<number, Json>; users: Map<string, Json> },
  x: Exchange,
): void {
  const url = new URL(x.req.url ?? '/', 'http://petstore');
  const path = url.pathname.replace(/^\/v3/, '');
  const method = x.req.method ?? 'GET';
  const parsed = (): Json =>
    x.req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')
      ? Object.fromEntries(new URLSearchParams(x.body))
      : (JSON.parse(x.body || '{}') as Json);
  const pet = /^\/pet\/([^/]+)$/.exec(path);
  if (path === '/pet' && (method === 'POST' || method === 'PUT')) {
    const value = parsed();
    if (typeof value.name !== 'string') return send(x.res, 400, { message: 'Invalid input' });
    const id = typeof value.id === 'number' ? value.id : state.pets.size + 100;
    if (method === 'PUT' && !state.pets.has(id)) return send(x.res, 404, { message: 'Pet not found' });
    state.pets.set(id, { ...value, id });
    return send(x.res, 200, state.pets.get(id));
  }
  if (path === '/pet/findByStatus' && method === 'GET') {
    const status = url.searchParams.get('status') ?? 'available';
    return send(
      x.res,
      200,
      [...state.pets.values()].filter((p) => p.status === status),
    );
  }
  if (path === '/pet/findByTags' && method === 'GET') {
    const tags = url.searchParams.getAll('tags');
    const has = (p: Json) => ((p.tags ?? []) as Json[]).some((t) => tags.includes(t.name as string));
    return send(x.res, 200, [...state.pets.values()].filter(has));
  }
  if (pet && method === 'GET') {
    const found = state.pets.get(Number(decodeURIComponent(pet[1]!)));
    return found ? send(x.res, 200, found) : send(x.res, 404, { message: 'Pet not found' });
  }
  if (pet && method === 'POST') {
    const found = state.pets.get(Number(pet[1]));
    if (!found) return send(x.res, 404, { message: 'Pet not found' });
    for (const key of ['name', 'status'])
      if (url.searchParams.has(key)) found[key] = url.searchParams.get(key);
    return send(x.res, 200, found);
  }
  if (pet && method === 'DELETE') {
    if (x.req.headers.api_key !== 'special-key') return send(x.res, 400, { message: 'Invalid pet value' });
    return state.pets.delete(Number(pet[1]))
      ? send(x.res, 200, '')
      : send(x.res, 404, { message: 'Pet not found' });
  }
  if (path === '/store/inventory' && method === 'GET') {
    const counts: Record<string, number> = {};
    for (const p of state.pets.values()) counts[p.status as string] = (counts[p.status as string] ?? 0) + 1;
    return send(x.res, 200, counts);
  }
  if (path === '/store/order' && method === 'POST') {
    const order: Json = { ...parsed(), status: 'placed' };
    state.orders.set(Number(order.id), order);
    return send(x.res, 200, order);
  }
  if (path === '/user/login' && method === 'GET')
    return send(x.res, 200, JSON.stringify(`logged in user session:${url.searchParams.get('username')}`));
  if (path.startsWith('/edge/')) return edge(path, x);
  send(x.res, 404, { message: 'no such route' });
}

/** The routes of edge.json: each misbehaves in one way. */
function edge(path: string, x: Exchange): void {
  if (path === '/edge/html') return send(x.res, 200, '<html>oops</html>', 'text/html');
  if (path === '/edge/broken') return send(x.res, 200, '{"half":', 'application/json');
  if (path === '/edge/crash')
    return send(x.res, 503, { error: 'down', echo: x.req.headers.authorization ?? null });
  if (path === '/edge/echo')
    return send(x.res, 200, {
      authorization: x.req.headers.authorization ?? null,
      key: x.req.headers['x-api-key'] ?? null,
    });
  if (path === '/edge/wrong') return send(x.res, 200, { id: 'not-a-number' });
  if (path === '/edge/tree')
    return send(x.res, 200, { name: 'root', children: [{ name: 'leaf', children: [] }] });
  if (path === '/edge/hang') return; // never answers: the caller's timeout decides
  if (path.startsWith('/edge/shape/')) return send(x.res, 200, JSON.parse(x.body || 'null'));
  if (path === '/edge/big') return send(x.res, 200, { blob: 'x'.repeat(64 * 1024) });
  send(x.res, 404, { message: 'no such edge' });
}
