/**
 * The CLI's side of OAuth: the browser flow with a loopback redirect listener on
 * 127.0.0.1 (a random port), the authorization URL printed to stderr and opened where
 * possible, tokens in the {@link fileStore}; or a bearer token from `--token`.
 * Source: RFC 8252 §7.3 (loopback redirect); 2026-07-28 basic/authorization.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { oauthClient, type OAuthClient } from '../auth/index.js';
import type { FetchWrapper } from '../client/index.js';
import { fileStore } from './auth-store.js';

/** Longest wait for the browser to come back, in milliseconds. */
const BROWSER_WAIT_MS = 5 * 60_000;

/** How the CLI shows the authorization URL (tests replace the browser). */
export type Opener = (url: URL) => void;

/** Opens `url` in the user's browser where a known opener exists; never throws. */
const openBrowser: Opener = (url) => {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url.href], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No browser here: the printed URL is enough.
  }
};

/** A loopback listener that resolves with the first request to its callback path. */
async function listenLoopback(): Promise<{ redirectUri: string; next: () => Promise<URL>; server: Server }> {
  let deliver: (url: URL) => void = () => undefined;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1`);
    if (url.pathname !== '/callback') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('mcpkit: authorization received; you can close this window.\n');
    deliver(new URL(`${redirectUri}${url.search}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  const next = () =>
    new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('no answer from the browser within 5 minutes')),
        BROWSER_WAIT_MS,
      );
      deliver = (url) => {
        clearTimeout(timer);
        resolve(url);
      };
    });
  return { redirectUri, next, server };
}

/** The OAuth client of the CLI for one endpoint, with its loopback listener. */
export async function browserAuth(open: Opener = openBrowser): Promise<OAuthClient & { close(): void }> {
  const loopback = await listenLoopback();
  const client = oauthClient({
    clientName: 'mcpkit CLI',
    redirectUri: loopback.redirectUri,
    store: fileStore(),
    redirect: async (url) => {
      const answer = loopback.next();
      process.stderr.write(`mcpkit: authorize in your browser: ${url.href}\n`);
      open(url);
      return answer;
    },
  });
  return Object.assign(client, { close: () => loopback.server.close() });
}

/** A fixed bearer token from `--token`, added to requests for the endpoint only. */
export function tokenAuth(token: string): FetchWrapper {
  return {
    wrapFetch: (fetcher, endpoint) => (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.origin !== endpoint.origin) return fetcher(input, init);
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${token}`);
      return fetcher(input, { ...init, headers });
    },
  };
}
