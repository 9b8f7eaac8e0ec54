/**
 * The official TypeScript SDK's OAuth clients (v2 `@modelcontextprotocol/client` and v1
 * `@modelcontextprotocol/sdk`) through mcpkit's authorization server façade, in front of a
 * real OpenID provider with dynamic registration off: each registers at the façade, the
 * simulated browser approves the consent page and signs in upstream, and the client calls a
 * tool as the upstream user.
 */
import {
  Client as V2Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError as V1Unauthorized } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browse, startFacade, type FacadeSetup } from '../support/facade.js';

let setup: FacadeSetup;

beforeAll(async () => {
  setup = await startFacade();
});

afterAll(async () => {
  await setup?.close();
});

type ClientInfo = Parameters<NonNullable<OAuthClientProvider['saveClientInformation']>>[0];
type Tokens = Parameters<OAuthClientProvider['saveTokens']>[0];

/** An in-memory OAuth provider for the official clients, as an app would write one. */
class MemoryProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  #client: ClientInfo | undefined;
  #tokens: Tokens | undefined;
  #verifier = '';
  get redirectUrl() {
    return 'http://127.0.0.1/callback';
  }
  get clientMetadata() {
    return {
      client_name: 'official-client',
      redirect_uris: ['http://127.0.0.1/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.#client;
  }
  saveClientInformation(info: ClientInfo) {
    this.#client = info;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: Tokens) {
    this.#tokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
}

function whoami(result: unknown): { sub?: string; scopes?: string[] } {
  return JSON.parse((result as { content: { text: string }[] }).content[0]!.text);
}

describe('the official clients through the façade', () => {
  it('v2: registers, consents, signs in upstream and calls a tool as the upstream user', async () => {
    const provider = new MemoryProvider();
    const first = new StreamableHTTPClientTransport(new URL(setup.url), { authProvider: provider });
    await expect(new V2Client({ name: 'v2', version: '2' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(provider.authorizationUrl?.searchParams.get('resource')).toBe(setup.url);
    const callback = await browse(provider.authorizationUrl!, provider.redirectUrl, { login: 'bob' });
    expect(callback.searchParams.get('iss')).toBe(new URL(setup.url).origin);
    await first.finishAuth(callback.searchParams);
    const client = new V2Client({ name: 'v2', version: '2' });
    await client.connect(new StreamableHTTPClientTransport(new URL(setup.url), { authProvider: provider }));
    expect(whoami(await client.callTool({ name: 'whoami', arguments: {} })).sub).toBe('bob');
    const upstream = await client.callTool({ name: 'upstream-me', arguments: {} });
    expect(JSON.parse((upstream.content as { text: string }[])[0]!.text).sub).toBe('bob');
    await client.close();
  });

  it('v1: registers, consents, signs in upstream and calls a tool as the upstream user', async () => {
    const provider = new MemoryProvider();
    const first = new V1Transport(new URL(setup.url), { authProvider: provider as never });
    await expect(new V1Client({ name: 'v1', version: '1' }).connect(first)).rejects.toBeInstanceOf(
      V1Unauthorized,
    );
    const callback = await browse(provider.authorizationUrl!, provider.redirectUrl, { login: 'carol' });
    await first.finishAuth(callback.searchParams.get('code')!);
    const client = new V1Client({ name: 'v1', version: '1' });
    await client.connect(new V1Transport(new URL(setup.url), { authProvider: provider as never }));
    expect(whoami(await client.callTool({ name: 'whoami', arguments: {} })).sub).toBe('carol');
    await client.close();
  });
});
