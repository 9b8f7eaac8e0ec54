/**
 * Server-side enterprise-managed authorization: the façade's token endpoint accepts an
 * identity assertion grant (ID-JAG, RFC 7523 JWT bearer) from its configured enterprise IdP,
 * as mcpkit's client sends it (the IdP's ID token exchanged at the IdP for an ID-JAG, RFC
 * 8693). The IdP here is a small test double: a JWKS and a token exchange endpoint that
 * signs ID-JAGs. Assertions from another issuer, for another client or audience are refused.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import { streamableHttp } from '../../client/http/index.js';
import { startFacade, type FacadeSetup } from '../../../test/support/facade.js';
import { oauthClient } from '../index.js';

let setup: FacadeSetup;
let idp: { issuer: string; close(): Promise<void> };
let keys: Awaited<ReturnType<typeof generateKeyPair>>;
let client: { client_id: string; client_secret: string };

/** An ID-JAG as the IdP signs it; `overrides` change claims. */
function idJag(overrides: Record<string, unknown> = {}, issuer = idp.issuer): Promise<string> {
  return new SignJWT({
    sub: 'dana@corp.example',
    client_id: client.client_id,
    resource: setup.url,
    scope: 'mcp:read',
    jti: crypto.randomUUID(),
    ...overrides,
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'oauth-id-jag+jwt', kid: 'idp' })
    .setIssuer(issuer)
    .setAudience(String(overrides.aud ?? new URL(setup.url).origin))
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(keys.privateKey);
}

beforeAll(async () => {
  keys = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'idp', alg: 'ES256', use: 'sig' };
  const http = createServer(async (req, res) => {
    if (req.url === '/jwks')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ keys: [jwk] }));
    let body = '';
    for await (const chunk of req) body += chunk;
    const form = new URLSearchParams(body);
    if (form.get('subject_token') !== 'enterprise-id-token')
      return void res.writeHead(400).end('{"error":"invalid_grant"}');
    const token = await idJag({ aud: form.get('audience') });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        access_token: token,
        issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        token_type: 'N_A',
        expires_in: 300,
      }),
    );
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  idp = { issuer, close: () => new Promise((resolve) => http.close(() => resolve())) };
  setup = await startFacade({ enterprise: { issuer, jwksUri: `${issuer}/jwks` } });
  const registered = await fetch(new URL('/oauth/register', setup.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'agent',
      redirect_uris: ['https://agent.example/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
    }),
  });
  client = await registered.json();
});

afterAll(async () => {
  await setup?.close();
  await idp?.close();
});

async function assertionGrant(assertion: string) {
  const response = await fetch(new URL('/oauth/token', setup.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}`,
    },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion,
      resource: setup.url,
    }),
  });
  return { status: response.status, body: await response.json() };
}

describe('the identity assertion grant (ID-JAG) at the façade', () => {
  it('gives mcpkit’s enterprise client a token for the IdP’s user, and the tool sees that user', async () => {
    const auth = oauthClient({
      grant: {
        type: 'enterprise',
        idToken: () => 'enterprise-id-token',
        idp: { tokenEndpoint: `${idp.issuer}/token`, clientId: 'agent-at-idp' },
      },
      credentials: { clientId: client.client_id, clientSecret: client.client_secret },
      dpop: false,
    });
    const mcp = createClient({ name: 'agent', version: '1' });
    await mcp.connect(streamableHttp(setup.url, { auth }));
    const result = await mcp.callTool('whoami', {});
    expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({
      sub: 'dana@corp.example',
      client: client.client_id,
    });
    await mcp.close();
  });

  it.each([
    ['another issuer', () => idJag({}, 'https://other-idp.example')],
    ['another client', () => idJag({ client_id: 'someone-else' })],
    ['another audience', () => idJag({ aud: 'https://other-as.example' })],
    ['another resource', () => idJag({ resource: 'https://other.example/mcp' })],
  ])('refuses an assertion for %s', async (_what, make) => {
    const { status, body } = await assertionGrant(await make());
    expect(status).toBe(400);
    expect(['invalid_grant', 'invalid_target']).toContain(body.error);
  });
});
