/**
 * The OAuth client against hostile or broken peers: each case fails with a clear
 * AuthError, makes no further step (no authorization request after bad metadata), and
 * never puts a secret (client secret, code, token) in the message.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  startFake,
  type FakeAnswer,
  type FakeHttp,
  type FakeRequest,
} from '../../../test/support/fake-http.js';
import { startIssuer } from '../../../test/support/oidc.js';
import { AuthError } from '../errors.js';
import { memoryStore, oauthClient, type OAuthClientOptions } from '../index.js';
import { discoverIssuer } from './discovery.js';
import { finishCodeFlow, startCodeFlow } from './grants.js';
import { obtainClient } from './identity.js';

const SECRET = 'very-secret-client-secret';
let fakes: FakeHttp[] = [];

afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

type Routes = Record<string, (r: FakeRequest) => FakeAnswer>;

/** An MCP endpoint that always answers 401 with `challenge`, plus `routes`. */
async function resource(challenge: string, routes: (base: string) => Routes = () => ({})) {
  const fake = await startFake((base) => ({
    'POST /mcp': () => ({
      status: 401,
      headers: { 'www-authenticate': challenge },
      json: { error: 'unauthorized' },
    }),
    ...routes(base),
  }));
  fakes.push(fake);
  return fake;
}

function asMetadata(issuer: string, extra: Record<string, unknown> = {}) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic'],
    ...extra,
  };
}

/** Makes one authorized request through the OAuth client and returns the error it fails with. */
async function failure(url: string, options: OAuthClientOptions = {}): Promise<AuthError> {
  const auth = oauthClient({ redirect: () => undefined, ...options });
  const wrapped = auth.wrapFetch((i, o) => fetch(i, o), new URL(url));
  const error = await wrapped(url, { method: 'POST', body: '{}' }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthError);
  expect((error as Error).message).not.toContain(SECRET);
  return error as AuthError;
}

const credentials = { clientId: 'c1', clientSecret: SECRET };

describe('OAuth client bad input', () => {
  it('discovers through the well-known URL when WWW-Authenticate is malformed, and refuses metadata for another resource', async () => {
    const fake = await resource('Bearer resource_metadata="unterminated', () => ({
      'GET /.well-known/oauth-protected-resource/mcp': () => ({
        json: { resource: 'https://evil.example/mcp', authorization_servers: ['https://evil.example'] },
      }),
    }));
    const error = await failure(`${fake.origin}/mcp`);
    expect(error.code).toBe('METADATA_MISMATCH');
    expect(error.message).toContain('https://evil.example/mcp');
    expect(fake.requests.map((r) => r.path)).not.toContain('/.well-known/oauth-authorization-server');
  });

  it('refuses authorization server metadata whose issuer differs, by plain string comparison', async () => {
    const as = await startFake((base) => ({
      'GET /.well-known/oauth-authorization-server': () => ({ json: asMetadata(`${base}/`) }),
    }));
    fakes.push(as);
    const fake = await resource(`Bearer resource_metadata="PRM"`, (base) => ({
      'GET /.well-known/oauth-protected-resource/mcp': () => ({
        json: { resource: `${base}/mcp`, authorization_servers: [as.origin] },
      }),
    }));
    const error = await failure(`${fake.origin}/mcp`, { credentials });
    expect(error.code).toBe('METADATA_MISMATCH');
    expect(as.requests.some((r) => r.path === '/authorize' || r.path === '/token')).toBe(false);
  });

  it('refuses an authorization server that does not advertise PKCE S256', async () => {
    const as = await startFake((base) => ({
      'GET /.well-known/oauth-authorization-server': () => ({
        json: asMetadata(base, { code_challenge_methods_supported: ['plain'] }),
      }),
    }));
    fakes.push(as);
    const fake = await resource('Bearer', (base) => ({
      'GET /.well-known/oauth-protected-resource/mcp': () => ({
        json: { resource: `${base}/mcp`, authorization_servers: [as.origin] },
      }),
    }));
    const error = await failure(`${fake.origin}/mcp`, { credentials });
    expect(error.code).toBe('UNSUPPORTED_SERVER');
    expect(error.message).toContain('S256');
  });

  it('reports token endpoint errors without the client secret', async () => {
    const as = await startFake((base) => ({
      'GET /.well-known/oauth-authorization-server': () => ({
        json: asMetadata(base, { grant_types_supported: ['client_credentials'] }),
      }),
      'POST /token': (r) => ({
        status: 400,
        json: { error: 'invalid_client', error_description: `bad ${r.headers.authorization}` },
      }),
    }));
    fakes.push(as);
    const fake = await resource('Bearer', (base) => ({
      'GET /.well-known/oauth-protected-resource/mcp': () => ({
        json: { resource: `${base}/mcp`, authorization_servers: [as.origin] },
      }),
    }));
    const error = await failure(`${fake.origin}/mcp`, { credentials, grant: { type: 'client_credentials' } });
    expect(error.code).toBe('TOKEN_REQUEST_FAILED');
    expect(error.message).toContain('invalid_client');
    expect(JSON.stringify(error.cause)).not.toContain('Basic');
  });
});

describe('OAuth client against oidc-provider, bad callbacks', () => {
  it('refuses a state mismatch and a replayed authorization code', async () => {
    const issuer = await startIssuer();
    try {
      const fake = await resource('Bearer', (base) => ({
        'GET /.well-known/oauth-protected-resource/mcp': () => ({
          json: {
            resource: `${base}/mcp`,
            authorization_servers: [issuer.issuer],
            scopes_supported: ['mcp:read'],
          },
        }),
      }));
      const url = `${fake.origin}/mcp`;
      const tampered = await failure(url, {
        redirect: async (u) => {
          const back = await issuer.approve(u);
          back.searchParams.set('state', 'forged');
          return back;
        },
      });
      expect(tampered.code).toBe('AUTHORIZATION_REJECTED');

      // A code redeemed once, then replayed with the same state and verifier: the token
      // endpoint refuses it, and the message does not carry the code.
      const http = { fetch: (i: RequestInfo | URL, o?: RequestInit) => fetch(i, o), insecureOk: () => true };
      const as = await discoverIssuer(http, issuer.issuer);
      const identity = await obtainClient(as, {
        store: memoryStore(),
        http: { fetch: http.fetch, insecure: true },
        clientName: 'replay',
        redirectUri: 'http://127.0.0.1/callback',
        grantTypes: ['authorization_code'],
      });
      const ctx = { as, identity, resource: url, scopes: ['mcp:read'], fetch: http.fetch, insecure: true };
      const flow = await startCodeFlow(ctx, 'http://127.0.0.1/callback');
      const callback = await issuer.approve(flow.url);
      expect((await finishCodeFlow(ctx, flow, callback)).access_token).toBeTruthy();
      const replay = await finishCodeFlow(ctx, flow, callback).then(
        () => undefined,
        (e: unknown) => e as AuthError,
      );
      expect(replay?.code).toBe('TOKEN_REQUEST_FAILED');
      expect(replay?.message).toContain('invalid_grant');
      expect(replay?.message).not.toContain(callback.searchParams.get('code')!);
    } finally {
      await issuer.close();
    }
  });
});
