/**
 * The official SDKs' OAuth clients (TypeScript v2 `@modelcontextprotocol/client` and v1
 * `@modelcontextprotocol/sdk`, Python `mcp` from pip) through mcpkit's authorization server façade, in front of a
 * real OpenID provider with dynamic registration off: each registers at the façade, the
 * simulated browser approves the consent page and signs in upstream, and the client calls a
 * tool as the upstream user.
 */
import {
  Client as V2Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError as V1Unauthorized } from '@modelcontextprotocol/sdk/client/auth.js';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';
import { startFacade, type FacadeSetup } from '../support/facade.js';
import { browse } from '../support/oidc.js';
import { MemoryOAuthProvider } from '../support/oauth-provider.js';
import { pythonEnv } from '../support/py-venv.js';

let setup: FacadeSetup;

beforeAll(async () => {
  setup = await startFacade();
});

afterAll(async () => {
  await setup?.close();
});

function whoami(result: unknown): { sub?: string; scopes?: string[] } {
  return JSON.parse((result as { content: { text: string }[] }).content[0]!.text);
}

describe('the official clients through the façade', () => {
  it('v2: registers, consents, signs in upstream and calls a tool as the upstream user', async () => {
    const provider = new MemoryOAuthProvider('official-client');
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
    const provider = new MemoryOAuthProvider('official-client');
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

describe('the official Python SDK client through the façade', () => {
  it('registers, consents, signs in upstream and calls a tool as the upstream user', async (ctx) => {
    // The venv is made here (python3 -m venv, pip install); only an absent python3 skips.
    const env = await pythonEnv();
    if ('missing' in env) {
      if (env.noPython) return ctx.skip(env.missing);
      throw new Error(env.missing);
    }
    const script = join(ROOT, 'test', 'support', 'fixtures', 'oauth_client.py');
    const child = spawn(env.python, [script, setup.url], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-4000)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let authorization: URL | undefined;
    let result: string | undefined;
    try {
      for await (const line of createInterface({ input: child.stdout })) {
        if (line.startsWith('AUTHORIZE ')) {
          authorization = new URL(line.slice('AUTHORIZE '.length));
          const back = await browse(authorization, 'http://127.0.0.1/callback', { login: 'erin' });
          child.stdin.write(`${back.href}\n`);
        } else if (line.startsWith('RESULT ')) result = line.slice('RESULT '.length);
      }
      expect(await exited, stderr).toBe(0);
    } finally {
      child.kill();
    }
    expect(authorization?.searchParams.get('resource')).toBe(setup.url);
    expect(authorization?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(JSON.parse(result ?? '{}').sub).toBe('erin');
  }, 120_000);
});
