/**
 * Authorization interop with a real authorization server (oidc-provider in-process):
 * the official v2 client with its OAuth provider reaches our protected server, and our
 * client reaches an official v2 server protected with its `requireBearerAuth`.
 */
import {
  Client as V2Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import {
  McpServer as V2Server,
  createMcpHandler,
  oauthMetadataResponse,
  requireBearerAuth,
} from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtVerifier, oauthClient, protectedResource } from '../../src/auth/index.js';
import { createClient } from '../../src/client/index.js';
import { streamableHttp } from '../../src/client/http/index.js';
import { createServer as createNodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener } from '../../src/integrations/node/index.js';
import { MemoryOAuthProvider } from '../support/oauth-provider.js';
import { startIssuer, type TestIssuer } from '../support/oidc.js';
import { startProtected, type ProtectedServer } from '../support/protected-server.js';

let issuer: TestIssuer;
let ours: ProtectedServer;
const cleanup: (() => Promise<void>)[] = [];

beforeAll(async () => {
  issuer = await startIssuer();
  ours = await startProtected((url) =>
    protectedResource({
      resource: url,
      authorizationServers: [issuer.issuer],
      scopesSupported: ['mcp:read'],
      verifier: jwtVerifier({ issuer: issuer.issuer, audience: url }),
    }),
  );
});

afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  await ours?.close();
  await issuer?.close();
});

describe('the official v2 client with its OAuth provider against our protected server', () => {
  it('is refused, authorizes through oidc-provider, then calls a tool as the user', async () => {
    const provider = new MemoryOAuthProvider('official-v2-client', { application_type: 'native' });
    const first = new StreamableHTTPClientTransport(new URL(ours.url), { authProvider: provider });
    const client = new V2Client({ name: 'official-v2-client', version: '2.4.0' });
    await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl?.searchParams.get('resource')).toBe(ours.url);
    const callback = await issuer.approve(provider.authorizationUrl!);
    await first.finishAuth(callback.searchParams);

    const again = new V2Client({ name: 'official-v2-client', version: '2.4.0' });
    await again.connect(new StreamableHTTPClientTransport(new URL(ours.url), { authProvider: provider }));
    const result = await again.callTool({ name: 'whoami', arguments: {} });
    const me = JSON.parse((result.content as { text: string }[])[0]!.text);
    expect(me.sub).toBe('alice');
    expect(me.scopes).toContain('mcp:read');
    await again.close();
  });
});

describe('our client against an official v2 server with requireBearerAuth', () => {
  async function startV2(): Promise<string> {
    const port = { url: '' };
    const handler = createMcpHandler(() => {
      const server = new V2Server({ name: 'v2-protected', version: '2.4.0' });
      server.registerTool('hello', { description: 'Says hello' }, () => ({
        content: [{ type: 'text', text: 'hello from a protected v2 server' }],
      }));
      return server;
    });
    const metadata = await (await fetch(`${issuer.issuer}/.well-known/openid-configuration`)).json();
    const ourVerifier = () => jwtVerifier({ issuer: issuer.issuer, audience: port.url });
    const web = async (request: Request): Promise<Response> => {
      const resourceServerUrl = new URL(port.url);
      const prm = oauthMetadataResponse(request, {
        oauthMetadata: metadata,
        resourceServerUrl,
        scopesSupported: ['mcp:read'],
        dangerouslyAllowInsecureIssuerUrl: true,
      });
      if (prm) return prm;
      const auth = await requireBearerAuth({
        verifier: {
          verifyAccessToken: async (token) => {
            const info = await ourVerifier()(token);
            return {
              token,
              clientId: info.clientId ?? '',
              scopes: [...(info.scopes ?? [])],
              ...(info.expiresAt ? { expiresAt: info.expiresAt } : {}),
              resource: resourceServerUrl,
            };
          },
        },
        resourceMetadataUrl: `${resourceServerUrl.origin}/.well-known/oauth-protected-resource/mcp`,
        expectedResource: resourceServerUrl,
      })(request);
      return auth instanceof Response ? auth : handler.fetch(request, { authInfo: auth });
    };
    const http = createNodeServer(toNodeListener(web));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    port.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    cleanup.push(async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    });
    return port.url;
  }

  it('discovers, authorizes and calls the tool with a bearer token', async () => {
    const url = await startV2();
    const client = createClient({ name: 'mcpkit', version: '0.1.0' });
    await client.connect(
      streamableHttp(url, { auth: oauthClient({ redirect: (u) => issuer.approve(u), dpop: false }) }),
    );
    const result = await client.callTool('hello', {});
    expect(result.content).toEqual([{ type: 'text', text: 'hello from a protected v2 server' }]);
    await client.close();
  });
});
