/**
 * The inspector's OAuth login through its own API and `/callback`, against a real
 * authorization server (oidc-provider in-process) protecting an mcpkit server: the
 * authorization URL goes to the page, the browser's return is checked against the login's
 * `state`, tokens never reach the page, and the failures (a foreign state, a refused
 * consent, an unreachable authorization server) are reported.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jwtVerifier, memoryStore, protectedResource } from '../../auth/index.js';
import { startIssuer, type TestIssuer } from '../../../test/support/oidc.js';
import { startProtected, type ProtectedServer } from '../../../test/support/protected-server.js';
import { until } from '../../../test/support/wait.js';
import type { InspectorEvent } from './bridge.js';
import { startInspector, type Inspector } from './server.js';

let issuer: TestIssuer;
let server: ProtectedServer;
/** A server whose metadata names an authorization server nobody listens on. */
let orphan: ProtectedServer;

beforeAll(async () => {
  issuer = await startIssuer();
  const guard = (issuerUrl: string) => (url: string) =>
    protectedResource({
      resource: url,
      authorizationServers: [issuerUrl],
      scopesSupported: ['mcp:read'],
      verifier: jwtVerifier({ issuer: issuerUrl, audience: url }),
    });
  server = await startProtected(guard(issuer.issuer));
  const gone = await startIssuer();
  await gone.close();
  orphan = await startProtected(guard(gone.issuer));
});

afterAll(async () => {
  await Promise.all([server?.close(), orphan?.close()]);
  await issuer?.close();
});

/** An inspector with its own in-memory token store, and the events it sent. */
async function inspectorWithEvents(): Promise<{ inspector: Inspector; events: InspectorEvent[] }> {
  const inspector = await startInspector({ authStore: memoryStore() });
  const events: InspectorEvent[] = [];
  inspector.bridge.subscribe((event) => events.push(event));
  return { inspector, events };
}

type Answer = { result?: unknown; error?: { message: string } };

async function call(inspector: Inspector, route: string, body: object = {}): Promise<Answer> {
  const url = new URL(inspector.url);
  const response = await fetch(new URL(`/api/${route}`, url), {
    method: 'POST',
    headers: { 'x-mcpkit-token': url.searchParams.get('token') ?? '', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Answer;
}

/** The route's result. @throws Error with the route's error message. */
async function api<T = Record<string, unknown>>(
  inspector: Inspector,
  route: string,
  body?: object,
): Promise<T> {
  const answer = await call(inspector, route, body);
  if (answer.error) throw new Error(answer.error.message);
  return answer.result as T;
}

/** The route's error message ('' when it succeeded). */
async function failure(inspector: Inspector, route: string, body?: object): Promise<string> {
  return (await call(inspector, route, body)).error?.message ?? '';
}

const login = async (inspector: Inspector, url: string) =>
  new URL((await api<{ authorizationUrl: string }>(inspector, 'login', target(url))).authorizationUrl);

const target = (url: string) => ({ target: { kind: 'http', url, headers: {} }, era: 'auto' });

describe('inspector login (OAuth code flow through /callback)', () => {
  let inspector: Inspector | undefined;
  afterEach(async () => {
    await inspector?.close();
    inspector = undefined;
  });

  it('says a protected server needs authorization, logs in, then connects without showing the token', async () => {
    const opened = await inspectorWithEvents();
    inspector = opened.inspector;
    expect(await failure(inspector, 'connect', target(server.url))).toMatch(/needs authorization: log in/);
    expect((await api(inspector, 'state')).auth).toEqual({ required: true, loggedIn: false });

    const authorizationUrl = await login(inspector, server.url);
    expect(authorizationUrl.origin).toBe(issuer.issuer);
    expect(authorizationUrl.searchParams.get('resource')).toBe(server.url);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    const back = await issuer.approve(authorizationUrl);
    expect(back.href.startsWith(`${new URL(inspector.url).origin}/callback?`)).toBe(true);
    const landing = await fetch(back);
    expect(landing.status).toBe(200);
    expect(landing.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await landing.text()).toContain('Logged in');

    await until(() => (inspector!.bridge.state() as { connected: boolean }).connected);
    const state = await api(inspector, 'state');
    expect(state.auth).toMatchObject({
      required: false,
      loggedIn: true,
      scopes: expect.arrayContaining(['mcp:read']),
    });
    const tools = await api<{ name: string }[]>(inspector, 'list', { kind: 'tools' });
    expect(tools.map((t) => t.name)).toContain('whoami');
    const called = await api<{ content: { text: string }[] }>(inspector, 'call', {
      callId: 'c1',
      name: 'whoami',
      arguments: {},
    });
    expect(called.content[0]?.text).toContain('"sub":"alice"');
    const everything = JSON.stringify([state, opened.events]);
    // No token value anywhere (the Network view shows the metadata, where `refresh_token` is a grant type's name).
    expect(everything).not.toMatch(
      /\\?"(access_token|refresh_token|id_token)\\?":\\?"(?!\[redacted\])|eyJ[\w-]+\.eyJ/,
    );

    // The callback answers once: a replay finds no login waiting.
    expect((await fetch(back)).status).toBe(400);

    expect(await api(inspector, 'logout')).toMatchObject({ connected: false, auth: { loggedIn: false } });
    expect(await failure(inspector, 'connect', target(server.url))).toMatch(/needs authorization/);
  });

  it('refuses a callback with another state and ends the login with that reason', async () => {
    const opened = await inspectorWithEvents();
    inspector = opened.inspector;
    const back = await issuer.approve(await login(inspector, server.url));
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged');
    const landing = await fetch(forged);
    expect(landing.status).toBe(400);
    expect(await landing.text()).toContain('state does not match');
    await until(() => opened.events.some((e) => e.type === 'login'));
    expect(opened.events.find((e) => e.type === 'login')?.error).toMatch(/login failed: .*state/);
    // The real callback no longer counts: the login it belonged to is over.
    expect((await fetch(back)).status).toBe(400);
    expect((inspector.bridge.state() as { connected: boolean }).connected).toBe(false);
  });

  it('reports a refused consent (error=access_denied) on the callback page and to the app', async () => {
    const opened = await inspectorWithEvents();
    inspector = opened.inspector;
    const authorizationUrl = await login(inspector, server.url);
    const denied = new URL('/callback', inspector.url);
    denied.searchParams.set('error', 'access_denied');
    denied.searchParams.set('error_description', 'the user said <no>');
    denied.searchParams.set('state', authorizationUrl.searchParams.get('state') ?? '');
    denied.searchParams.set('iss', issuer.issuer);
    const landing = await fetch(denied);
    expect(landing.status).toBe(400);
    const page = await landing.text();
    expect(page).toContain('access_denied');
    expect(page).not.toContain('<no>');
    await until(() => opened.events.some((e) => e.type === 'login'));
    expect(opened.events.find((e) => e.type === 'login')?.error).toMatch(/access_denied/);
  });

  it('answers a callback when no login is waiting with 400, and an unreachable authorization server with its address', async () => {
    const opened = await inspectorWithEvents();
    inspector = opened.inspector;
    expect((await fetch(new URL('/callback?code=x&state=y', inspector.url))).status).toBe(400);
    expect(await failure(inspector, 'connect', target(orphan.url))).toMatch(
      /needs authorization: .*authorization server metadata/,
    );
    expect((await api(inspector, 'state')).auth).toEqual({ required: true, loggedIn: false });
    expect(await failure(inspector, 'login', target(orphan.url))).toMatch(/127\.0\.0\.1/);
    expect((await api(inspector, 'state')).connected).toBe(false);
  });
  it('uses a --token bearer for the command line URL instead of logging in, and shows it nowhere', async () => {
    const basic = Buffer.from(`${issuer.machine.clientId}:${issuer.machine.clientSecret}`).toString('base64');
    const answer = await fetch(`${issuer.issuer}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        resource: server.url,
        scope: 'mcp:read',
      }),
    });
    const { access_token: token } = (await answer.json()) as { access_token: string };
    const http = { kind: 'http' as const, url: server.url, headers: {} };
    inspector = await startInspector({ target: http, bearerToken: token, authStore: memoryStore() });
    expect(inspector.url).not.toContain(token);
    const state = await api(inspector, 'connect', target(server.url));
    expect(JSON.stringify(state)).not.toContain(token);
    const called = await api<{ content: { text: string }[] }>(inspector, 'call', {
      callId: 'c2',
      name: 'whoami',
      arguments: {},
    });
    expect(called.content[0]?.text).toContain('"client":"machine"');
    // Another URL does not get it.
    expect(await failure(inspector, 'connect', target(orphan.url))).toMatch(/needs authorization/);
  });
  it('logs in with a client id given in the panel instead of registering one', async () => {
    inspector = await startInspector({ authStore: memoryStore() });
    const registered = await fetch(`${issuer.issuer}/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'registered by hand',
        application_type: 'native',
        redirect_uris: [new URL('/callback', inspector.url).href],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const body = { target: { kind: 'http', url: server.url, headers: {}, clientId }, era: 'auto' };
    const started = await api<{ authorizationUrl: string }>(inspector, 'login', body);
    const authorizationUrl = new URL(started.authorizationUrl);
    expect(authorizationUrl.searchParams.get('client_id')).toBe(clientId);
    expect((await fetch(await issuer.approve(authorizationUrl))).status).toBe(200);
    await until(() => (inspector!.bridge.state() as { connected: boolean }).connected);
    const called = await api<{ content: { text: string }[] }>(inspector, 'call', {
      callId: 'c3',
      name: 'whoami',
      arguments: {},
    });
    expect(called.content[0]?.text).toContain(`"client":"${clientId}"`);
  });
});
