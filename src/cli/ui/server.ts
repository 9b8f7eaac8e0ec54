/**
 * `mcpkit inspect --ui`: serves the inspector web app (built by Vite into `dist/ui`) and
 * its JSON API on 127.0.0.1 at a random port. Every API call must carry the session
 * token (header `x-mcpkit-token`, or `?token=` for the event stream), a `Host` naming
 * this listener, and no `Origin` other than this listener's own: another local page or
 * a DNS-rebinding site cannot drive it. `/callback` is the OAuth redirect URI: the
 * browser comes back there from the authorization server without the token, so it
 * answers only the login in progress, with that login's `state` (see login.ts).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthStore } from '../../auth/index.js';
import type { EraPreference } from '../../client/index.js';
import { fileStore } from '../auth-store.js';
import { describeFailure, ROUTES } from './api.js';
import type { InspectorBridge } from './bridge.js';
import { InspectorSession } from './session.js';
import { serveAsset } from './assets.js';
import { InspectorLogin } from './login.js';
import { startSandbox } from './sandbox.js';
import type { InspectorTarget } from './target.js';
import type { Catalog } from './catalog.js';

/** Largest API request body, in bytes. */
const MAX_API_BODY = 1024 * 1024;
/** Largest body of the routes that carry a file (a recording opened in the app), in bytes. */
const MAX_FILE_BODY = 32 * 1024 * 1024;
const BODY_LIMITS: Record<string, number> = { recording: MAX_FILE_BODY };

/** A running inspector. */
export interface Inspector {
  /** The URL to open: the session token, the target and the era are in its query. */
  readonly url: string;
  readonly bridge: InspectorSession;
  close(): Promise<void>;
}

/** Options of {@link startInspector}. */
export interface InspectorOptions {
  /** Connect to this at start (the app shows it in the connection panel either way). */
  target?: InspectorTarget;
  /** Era preference shown first in the connection panel; default `auto`. */
  era?: EraPreference;
  /** Port to listen on; default 0, a random free one. */
  port?: number;
  /** Where OAuth registrations and tokens are kept; default the CLI's token file (shared with `mcpkit login`). */
  authStore?: AuthStore;
  /** A bearer token (`--token`) for the target URL, used instead of the login. */
  bearerToken?: string;
  /** The servers of `--config` for the Servers view (see catalog.ts). */
  catalog?: Catalog;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(text);
}

function sameToken(given: string | null, token: string): boolean {
  if (given === null) return false;
  // Compare bytes, not characters: a non-ASCII guess of the right length must not throw.
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Why the request must be refused (403), if it must: wrong Host, foreign Origin, bad token. */
function refusal(
  req: IncomingMessage,
  url: URL,
  expected: { host: string; token: string },
): string | undefined {
  if (req.headers.host !== expected.host) return 'Host not allowed';
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${expected.host}`) return 'Origin not allowed';
  const header = req.headers['x-mcpkit-token'];
  const given = typeof header === 'string' ? header : url.searchParams.get('token');
  if (!sameToken(given, expected.token)) return 'missing or wrong session token';
  return undefined;
}

/** An API request body over {@link MAX_API_BODY}. */
class BodyTooLarge extends Error {
  constructor(limit: number) {
    super(`request body over ${limit} bytes`);
  }
}

function readJson(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      // Stop keeping the body but let it drain, so the caller gets a 413 instead of a reset.
      chunks.length = 0;
      reject(new BodyTooLarge(limit));
    });
    req.once('error', reject);
    req.once('end', () => {
      try {
        const value = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown;
        resolve(value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {});
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

function openEvents(bridge: InspectorBridge, req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  res.write(`data: ${JSON.stringify({ type: 'state', state: bridge.state() })}\n\n`);
  for (const event of bridge.recent()) res.write(`data: ${JSON.stringify(event)}\n\n`);
  const stop = bridge.subscribe((event) => res.write(`data: ${JSON.stringify(event)}\n\n`));
  req.once('close', stop);
}

async function callRoute(
  bridge: InspectorBridge,
  name: string,
  { req, res }: { req: IncomingMessage; res: ServerResponse },
) {
  const route = Object.hasOwn(ROUTES, name) ? ROUTES[name] : undefined;
  if (!route || req.method !== 'POST') return json(res, 404, { error: { message: 'no such API route' } });
  let body: Record<string, unknown>;
  try {
    body = await readJson(req, Object.hasOwn(BODY_LIMITS, name) ? (BODY_LIMITS[name] ?? 0) : MAX_API_BODY);
  } catch (error) {
    const status = error instanceof BodyTooLarge ? 413 : 400;
    return json(res, status, {
      error: { message: error instanceof Error ? error.message : 'bad request body' },
    });
  }
  try {
    json(res, 200, { result: await route(bridge, body) });
  } catch (error) {
    bridge.failed(error);
    json(res, 200, { error: describeFailure(error) });
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page the browser lands on after the authorization server: the login's outcome, no script. */
async function oauthCallback(login: InspectorLogin, url: URL, res: ServerResponse): Promise<void> {
  const { status, text } = await login.callback(url.searchParams);
  res
    .writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'",
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    })
    .end(
      `<!doctype html><meta charset="utf-8"><title>mcpkit inspector login</title>` +
        `<p data-test="callback">${escapeHtml(text)}</p>`,
    );
}

function handler(
  bridge: InspectorBridge,
  login: InspectorLogin,
  expected: { host: string; token: string; sandbox: string },
) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', `http://${expected.host}`);
    if (!url.pathname.startsWith('/api/')) {
      if (req.headers.host !== expected.host)
        return json(res, 403, { error: { message: 'Host not allowed' } });
      if (url.pathname === '/callback' && req.method === 'GET') return void oauthCallback(login, url, res);
      return void serveAsset(url.pathname, res, expected.sandbox);
    }
    const refused = refusal(req, url, expected);
    if (refused) return json(res, 403, { error: { message: `Forbidden: ${refused}` } });
    if (url.pathname === '/api/events' && req.method === 'GET') return openEvents(bridge, req, res);
    void callRoute(bridge, url.pathname.slice('/api/'.length), { req, res });
  };
}

/** Starts the inspector; resolves once it listens. */
export async function startInspector(options: InspectorOptions = {}): Promise<Inspector> {
  const token = randomBytes(24).toString('base64url');
  const expected = { host: '', token, sandbox: '' };
  let serve = (_req: IncomingMessage, res: ServerResponse): void => void res.writeHead(503).end();
  const server: Server = createServer((req, res) => serve(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  expected.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The redirect URI needs the port: the login (and the bridge using it) come after listening.
  const login = new InspectorLogin({
    redirectUri: `http://${expected.host}/callback`,
    store: options.authStore ?? fileStore(),
  });
  const target = options.target ?? { kind: 'builtin' };
  const bearer =
    options.bearerToken && target.kind === 'http'
      ? { url: target.url, token: options.bearerToken }
      : undefined;
  const bridge = new InspectorSession({ login, ...(bearer ? { bearer } : {}), catalog: options.catalog });
  const sandbox = await startSandbox(`http://${expected.host}`, (id) => bridge.apps.view(id));
  bridge.apps.sandboxOrigin = expected.sandbox = sandbox.origin;
  serve = handler(bridge, login, expected);
  const query = new URLSearchParams({ token, target: JSON.stringify(target), era: options.era ?? 'auto' });
  return {
    url: `http://${expected.host}/?${query.toString()}`,
    bridge,
    close: async () => {
      await bridge.disconnect();
      await bridge.catalog?.close();
      await sandbox.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
