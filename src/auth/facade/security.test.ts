/**
 * The security rules of 2026-07-28 basic/authorization/security-considerations, each checked
 * against the façade with a real upstream (oidc-provider, no dynamic registration): consent
 * per client before the upstream (confused deputy) with CSRF protection and no framing; exact
 * redirect URIs; no open redirect; PKCE S256 only; codes single-use (a replay revokes) and
 * short-lived; upstream tokens sealed at rest and never sent to the client; tokens bound to
 * the MCP endpoint; `iss` in every authorization response (RFC 9207); bounded registration.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  authorizeUrl,
  redeem,
  redeemRaw,
  registerClient,
  startFacade,
  type FacadeSetup,
} from '../../../test/support/facade.js';
import { browse } from '../../../test/support/oidc.js';
import { memoryFacadeStore, type FacadeStore } from './store.js';
import { authorizationFacade } from './facade.js';
import { oidcUpstream } from './presets.js';

const SECRET = 'a test secret of at least thirty-two characters';
const written = new Map<string, string>();
const upstreamAnswers: string[] = [];
let setup: FacadeSetup;
let store: FacadeStore;

beforeAll(async () => {
  const memory = memoryFacadeStore();
  store = { ...memory, set: (k, v, ttl) => (written.set(k, v), memory.set(k, v, ttl)) };
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (String(input instanceof Request ? input.url : input).endsWith('/token'))
      upstreamAnswers.push(await response.clone().text());
    return response;
  };
  setup = await startFacade({
    store,
    secret: SECRET,
    fetch: recording,
    limits: { maxRegistrations: 40, maxPendingPerAddress: 1000 },
  });
});

afterAll(async () => {
  await setup?.close();
});

afterEach(() => {
  vi.useRealTimers();
});

function get(url: URL | string, headers: Record<string, string> = {}) {
  return fetch(url, { redirect: 'manual', headers });
}

async function signedIn() {
  const client = await registerClient(setup.url);
  const flow = await authorizeUrl(setup.url, client.client_id);
  const back = await browse(flow.url, client.redirect_uri);
  return { client, flow, back };
}

async function statusWith(token: string): Promise<number> {
  const outcome = await setup.facade.authenticate({
    method: 'POST',
    url: setup.url,
    headers: new Headers({ authorization: `Bearer ${token}` }),
    signal: new AbortController().signal,
  });
  return 'auth' in outcome ? 200 : outcome.response.status;
}

describe('consent before the upstream (Confused Deputy Problem)', () => {
  it('shows the façade’s own consent page for a newly registered client, not a redirect upstream, and refuses framing', async () => {
    const client = await registerClient(setup.url);
    const response = await get((await authorizeUrl(setup.url, client.client_id)).url);
    expect(response.status).toBe(200);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await response.text();
    expect(html).toContain('Test client');
    expect(html).toContain('127.0.0.1:9'); // the redirect URI's host is shown
  });

  it('asks again for another client even when this browser approved one', async () => {
    const jar = new Map<string, string>();
    const first = await registerClient(setup.url);
    await browse((await authorizeUrl(setup.url, first.client_id)).url, first.redirect_uri, { jar });
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const again = await get((await authorizeUrl(setup.url, first.client_id)).url, { cookie });
    expect(again.status).toBe(302); // the approved client goes straight to the upstream
    await again.body?.cancel();
    const second = await registerClient(setup.url);
    const other = await get((await authorizeUrl(setup.url, second.client_id)).url, { cookie });
    expect(other.status).toBe(200);
    expect(await other.text()).toContain('name="decision"');
  });

  it('refuses a consent post without the CSRF token of the authorization in flight', async () => {
    const client = await registerClient(setup.url);
    const page = await get((await authorizeUrl(setup.url, client.client_id)).url);
    const html = await page.text();
    const pending = /name="pending" value="([^"]+)"/.exec(html)![1]!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
    const cookie = page.headers.getSetCookie()[0]!.split(';')[0]!;
    const post = (form: Record<string, string>, headers: Record<string, string>) =>
      fetch(new URL('/oauth/consent', setup.url), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(form),
      });
    const forged = await post({ pending, csrf: 'guess', decision: 'approve' }, { cookie });
    expect(forged.status).toBe(403);
    const noCookie = await post({ pending, csrf, decision: 'approve' }, {});
    expect(noCookie.status).toBe(403);
    const crossSite = await post(
      { pending, csrf, decision: 'approve' },
      { cookie, origin: 'https://evil.example' },
    );
    expect(crossSite.status).toBe(403);
    const real = await post({ pending, csrf, decision: 'approve' }, { cookie });
    expect(real.status).toBe(302);
    expect(real.headers.get('location')).toContain(setup.upstream.issuer);
  });

  it('answers a denial with access_denied at the client, with iss', async () => {
    const client = await registerClient(setup.url);
    const back = await browse((await authorizeUrl(setup.url, client.client_id)).url, client.redirect_uri, {
      decision: 'deny',
    });
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('client-state');
    expect(back.searchParams.get('iss')).toBe(new URL(setup.url).origin);
  });
});

describe('redirect URIs', () => {
  it.each([
    ['a longer path', 'http://127.0.0.1:9/cb/more'],
    ['an added query', 'http://127.0.0.1:9/cb?x=1'],
    ['another port', 'http://127.0.0.1:10/cb'],
    ['another host', 'https://evil.example/cb'],
  ])('shows an error page, never redirects, for %s', async (_what, redirectUri) => {
    const client = await registerClient(setup.url);
    const response = await get(
      (await authorizeUrl(setup.url, client.client_id, { redirect_uri: redirectUri })).url,
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('shows an error page for an unknown client, whatever redirect URI it names (no open redirect)', async () => {
    const response = await get(
      (await authorizeUrl(setup.url, 'nobody', { redirect_uri: 'https://evil.example/' })).url,
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('refuses to register a redirect URI that is neither https nor loopback', async () => {
    await expect(registerClient(setup.url, ['http://evil.example/cb'])).rejects.toThrow(/400/);
    await expect(registerClient(setup.url, ['javascript:alert(1)'])).rejects.toThrow(/400/);
  });
});

describe('PKCE, resource and iss', () => {
  it('refuses plain PKCE and a missing challenge, back at the validated redirect URI with iss', async () => {
    const client = await registerClient(setup.url);
    for (const extra of [{ code_challenge_method: 'plain' }, { code_challenge: '' }]) {
      const response = await get((await authorizeUrl(setup.url, client.client_id, extra)).url);
      const location = new URL(response.headers.get('location')!);
      expect(location.origin + location.pathname).toBe(client.redirect_uri);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('iss')).toBe(new URL(setup.url).origin);
    }
  });

  it('refuses a resource other than the MCP endpoint (RFC 8707)', async () => {
    const client = await registerClient(setup.url);
    const response = await get(
      (await authorizeUrl(setup.url, client.client_id, { resource: 'https://other.example/mcp' })).url,
    );
    expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
  });

  it('puts iss in the authorization response (RFC 9207) and advertises it', async () => {
    const { back } = await signedIn();
    expect(back.searchParams.get('iss')).toBe(new URL(setup.url).origin);
    const metadata = await (
      await fetch(new URL('/.well-known/oauth-authorization-server', setup.url))
    ).json();
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('refuses a code verifier that does not match the challenge', async () => {
    const { client, back } = await signedIn();
    const response = await redeemRaw(setup.url, {
      clientId: client.client_id,
      back,
      verifier: 'x'.repeat(43),
    });
    expect(response.status).toBe(400);
  });
});

describe('authorization codes', () => {
  it('are single-use: a replay is refused and revokes the tokens the code issued', async () => {
    const { client, flow, back } = await signedIn();
    const tokens = await redeem(setup.url, { clientId: client.client_id, back, verifier: flow.verifier });
    expect(await statusWith(tokens.access_token)).toBe(200);
    const replay = await redeemRaw(setup.url, { clientId: client.client_id, back, verifier: flow.verifier });
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe('invalid_grant');
    expect(await statusWith(tokens.access_token)).toBe(401);
  });

  it('are short-lived: refused after a minute', async () => {
    const { client, flow, back } = await signedIn();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    const late = await redeemRaw(setup.url, { clientId: client.client_id, back, verifier: flow.verifier });
    expect(late.status).toBe(400);
  });
});

describe('tokens', () => {
  it('keeps the upstream tokens encrypted at rest and never gives them to the MCP client', async () => {
    const { client, flow, back } = await signedIn();
    const tokens = await redeem(setup.url, { clientId: client.client_id, back, verifier: flow.verifier });
    const upstream = JSON.parse(upstreamAnswers.at(-1)!) as { access_token: string; refresh_token: string };
    expect(upstream.access_token).toBeTruthy();
    for (const value of written.values()) {
      expect(value).not.toContain(upstream.access_token);
      expect(value).not.toContain(upstream.refresh_token);
    }
    const grants = [...written]
      .filter(([k]) => k.startsWith('grant:'))
      .map(([, v]) => JSON.parse(v).upstream);
    expect(grants.at(-1).split('.')).toHaveLength(5); // compact JWE
    expect(JSON.stringify(tokens)).not.toContain(upstream.access_token);
    expect(JSON.stringify(tokens)).not.toContain(upstream.refresh_token);
  });

  it('binds access tokens to the MCP endpoint: another resource of the same issuer and keys refuses them', async () => {
    const { client, flow, back } = await signedIn();
    const tokens = await redeem(setup.url, { clientId: client.client_id, back, verifier: flow.verifier });
    const other = authorizationFacade({
      resource: new URL('/other-mcp', setup.url).href,
      issuer: new URL(setup.url).origin,
      secret: SECRET,
      store,
      upstream: oidcUpstream({
        issuer: setup.upstream.issuer,
        clientId: 'facade',
        clientSecret: 'facade-secret',
      }),
    });
    const outcome = await other.authenticate({
      method: 'POST',
      url: '/other-mcp',
      headers: new Headers({ authorization: `Bearer ${tokens.access_token}` }),
      signal: new AbortController().signal,
    });
    expect('response' in outcome && outcome.response.status).toBe(401);
    expect(await statusWith(tokens.access_token)).toBe(200);
  });

  it('names the façade as the authorization server of the MCP endpoint', async () => {
    const prm = await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', setup.url))).json();
    expect(prm).toMatchObject({ resource: setup.url, authorization_servers: [new URL(setup.url).origin] });
  });
});

describe('bounds', () => {
  it('bounds the number of registrations', async () => {
    const small = await startFacade({ limits: { maxRegistrations: 2 } });
    try {
      await registerClient(small.url);
      await registerClient(small.url);
      await expect(registerClient(small.url)).rejects.toThrow(/503/);
    } finally {
      await small.close();
    }
  });

  it('bounds authorizations in flight per client, and the size of each parameter', async () => {
    const small = await startFacade({ limits: { maxPendingPerClient: 2 } });
    try {
      const client = await registerClient(small.url);
      const url = (await authorizeUrl(small.url, client.client_id)).url;
      expect((await get(url)).status).toBe(200);
      expect((await get(url)).status).toBe(200);
      const third = await get(url);
      expect(new URL(third.headers.get('location')!).searchParams.get('error')).toBe(
        'temporarily_unavailable',
      );
      const long = await get(
        (await authorizeUrl(small.url, client.client_id, { state: 'x'.repeat(5000) })).url,
      );
      expect(long.status).toBe(400);
      const huge = await fetch(new URL('/oauth/register', small.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1/cb'], client_name: 'x'.repeat(20_000) }),
      });
      expect(huge.status).toBe(400);
    } finally {
      await small.close();
    }
  });
});

describe('the flow is bound to the browser that consented', () => {
  it('refuses an upstream callback in a browser that did not start the flow (a forwarded upstream link)', async () => {
    // The attacker registers a client, consents in their own browser and stops at the
    // upstream's URL, which they send to the victim.
    const client = await registerClient(setup.url);
    const attacker = new Map<string, string>();
    let upstreamUrl: URL | undefined;
    const stopAtUpstream: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const location = response.headers.get('location');
      if (location?.startsWith(setup.upstream.issuer)) upstreamUrl ??= new URL(location);
      return response;
    };
    await browse((await authorizeUrl(setup.url, client.client_id)).url, setup.upstream.issuer, {
      jar: attacker,
      fetch: stopAtUpstream,
    });
    expect(upstreamUrl).toBeDefined();
    // The victim signs in at the upstream; the callback reaches the façade without the flow's cookie.
    const pages: number[] = [];
    await expect(
      browse(upstreamUrl!, client.redirect_uri, { login: 'victim', onPage: (p) => pages.push(p.status) }),
    ).rejects.toThrow(/403/);
  });
});
