/**
 * mcpkit/auth end to end against a real authorization server (oidc-provider in-process):
 * our client reaches our resource server with the code flow (DCR, PKCE, resource
 * indicators, JWT access tokens), steps up to a wider scope, refreshes after expiry, and
 * uses DPoP-bound tokens; introspection and client credentials too.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../client/index.js';
import { streamableHttp } from '../client/http/index.js';
import { startIssuer, type TestIssuer } from '../../test/support/oidc.js';
import { startProtected, type ProtectedServer } from '../../test/support/protected-server.js';
import {
  introspectionVerifier,
  jwtVerifier,
  oauthClient,
  protectedResource,
  type OAuthClientOptions,
} from './index.js';

let issuer: TestIssuer;
let jwt: ProtectedServer;
let dpop: ProtectedServer;

beforeAll(async () => {
  issuer = await startIssuer();
  const guard = (url: string, withDpop: boolean) =>
    protectedResource({
      resource: url,
      authorizationServers: [issuer.issuer],
      scopesSupported: ['mcp:read'],
      verifier: jwtVerifier({ issuer: issuer.issuer, audience: url, clockToleranceSec: 0 }),
      dpop: withDpop,
    });
  jwt = await startProtected((url) => guard(url, false));
  dpop = await startProtected((url) => guard(url, true));
});

afterAll(async () => {
  await Promise.all([jwt?.close(), dpop?.close()]);
  await issuer?.close();
});

afterEach(() => {
  vi.useRealTimers();
});

/** A fetch that records the grant types of token requests. */
function recording(): { fetch: typeof fetch; grants: string[] } {
  const grants: string[] = [];
  const recorder: typeof fetch = async (input, init) => {
    if (String(input).endsWith('/token') && init?.body instanceof URLSearchParams)
      grants.push(init.body.get('grant_type') ?? '');
    return fetch(input, init);
  };
  return { fetch: recorder, grants };
}

async function connect(url: string, options: OAuthClientOptions) {
  const auth = oauthClient({ redirect: (u) => issuer.approve(u), ...options });
  const client = createClient({ name: 'e2e', version: '1.0.0' });
  await client.connect(streamableHttp(url, { auth }));
  return { client, auth };
}

function whoami(result: { content: unknown[] }): { sub?: string; scopes?: string[]; jkt?: string } {
  return JSON.parse((result.content[0] as { text: string }).text);
}

describe('our client and our resource server with oidc-provider', () => {
  it('runs the code flow with DCR, steps up for a scoped tool, and refreshes after expiry', async () => {
    const rec = recording();
    const { client, auth } = await connect(jwt.url, { dpop: false, fetch: rec.fetch });
    const me = whoami(await client.callTool('whoami', {}));
    expect(me.sub).toBe('alice');
    expect(me.scopes).toContain('mcp:read');
    expect(me.scopes).not.toContain('mcp:write');

    const written = await client.callTool('write', {});
    expect(written.content).toEqual([{ type: 'text', text: 'written' }]);
    const after = whoami(await client.callTool('whoami', {}));
    expect(after.scopes).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write']));
    expect(rec.grants.filter((g) => g === 'authorization_code')).toHaveLength(2);

    const before = (await auth.status())!.expiresAt!;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 3600_000);
    // Three calls at once on the expired token share one refresh (a rotating refresh token
    // is never spent twice).
    const calls = await Promise.all([1, 2, 3].map(() => client.callTool('whoami', {})));
    for (const call of calls) expect(whoami(call).sub).toBe('alice');
    expect(rec.grants.filter((g) => g === 'refresh_token')).toHaveLength(1);
    expect((await auth.status())!.expiresAt!).toBeGreaterThan(before);
    await client.close();
  });

  it('uses DPoP-bound tokens when the server and the authorization server support them', async () => {
    const { client, auth } = await connect(dpop.url, {});
    const me = whoami(await client.callTool('whoami', {}));
    expect(me.sub).toBe('alice');
    expect(me.jkt).toMatch(/^[\w-]{43}$/);
    expect((await auth.status())!.type).toBe('dpop');
    await client.close();
  });

  it('gets a client credentials token with pre-registered credentials', async () => {
    const { client } = await connect(jwt.url, {
      grant: { type: 'client_credentials' },
      credentials: { clientId: issuer.machine.clientId, clientSecret: issuer.machine.clientSecret },
      dpop: false,
    });
    const me = whoami(await client.callTool('whoami', {}));
    expect(me.sub).toBe(issuer.machine.clientId);
    await client.close();
  });

  it('verifies opaque tokens by introspection', async () => {
    const opaque = await startProtected((url) =>
      protectedResource({
        resource: url.replace('/mcp', '/opaque'),
        authorizationServers: [issuer.issuer],
        scopesSupported: ['mcp:read'],
        verifier: introspectionVerifier({
          issuer: issuer.issuer,
          clientId: issuer.rs.clientId,
          clientSecret: issuer.rs.clientSecret,
          audience: url.replace('/mcp', '/opaque'),
        }),
      }),
    );
    try {
      const { client } = await connect(opaque.url.replace('/mcp', '/opaque'), { dpop: false });
      expect(whoami(await client.callTool('whoami', {})).sub).toBe('alice');
      await client.close();
    } finally {
      await opaque.close();
    }
  });
});
