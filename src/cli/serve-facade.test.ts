/**
 * `mcpkit serve everything --port 0 --upstream-issuer URL --upstream-client-id ID
 * --upstream-client-secret-env VAR`: the everything server behind the authorization server
 * façade, in front of a real OpenID provider without dynamic registration; mcpkit's client
 * registers, consents, signs in upstream and calls `echo`.
 */
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../client/index.js';
import { streamableHttp } from '../client/http/index.js';
import { oauthClient } from '../auth/index.js';
import { CLI } from '../../test/support/cli.js';
import { startUpstream, type TestUpstream } from '../../test/support/facade.js';
import { browse } from '../../test/support/oidc.js';
import { runCli } from '../../test/support/cli.js';
import { freePort } from '../../bench/harness/redis.js';

let upstream: TestUpstream | undefined;

afterAll(async () => {
  await upstream?.close();
});

/** Starts the CLI with `args`; the endpoint URL and callback URL it prints, and the child. */
async function start(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
  const printed = await new Promise<{ url: string; callback: string }>((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
      const url = /serving everything at (\S+)/.exec(err)?.[1];
      const callback = /register (\S+) as the redirect URI/.exec(err)?.[1];
      if (url && callback) resolve({ url, callback });
    });
    child.once('exit', () => reject(new Error(err)));
  });
  return { child, ...printed };
}

describe('mcpkit serve everything behind the façade', () => {
  it('serves the everything server behind the façade: the flow completes and echo answers', async () => {
    // The user registers the callback at the provider first, so the port is chosen up front.
    const port = await freePort();
    upstream = await startUpstream([`http://127.0.0.1:${port}/oauth/callback`]);
    const { child, url, callback } = await start(
      [
        'serve',
        'everything',
        '--port',
        String(port),
        '--upstream-issuer',
        upstream.issuer,
        '--upstream-client-id',
        'facade',
        '--upstream-client-secret-env',
        'FACADE_SECRET',
      ],
      { FACADE_SECRET: 'facade-secret' },
    );
    try {
      expect(callback).toBe(new URL('/oauth/callback', url).href);
      const client = createClient({ name: 'cli-test', version: '1' });
      await client.connect(
        streamableHttp(url, {
          auth: oauthClient({ redirect: (u) => browse(u, 'http://127.0.0.1/callback'), dpop: false }),
        }),
      );
      const result = await client.callTool('echo', { text: 'through the façade' });
      expect(JSON.stringify(result.content)).toContain('through the façade');
      await client.close();
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('refuses an unset secret variable and a partial set of upstream flags', async () => {
    const partial = await runCli([
      'serve',
      'everything',
      '--port',
      '0',
      '--upstream-issuer',
      'https://github.com',
    ]);
    expect(partial.code).not.toBe(0);
    expect(partial.stderr).toContain('go together');
    const unset = await runCli([
      'serve',
      'everything',
      '--port',
      '0',
      '--upstream-issuer',
      'https://github.com',
      '--upstream-client-id',
      'x',
      '--upstream-client-secret-env',
      'MCPKIT_UNSET_SECRET_VARIABLE',
    ]);
    expect(unset.code).not.toBe(0);
    expect(unset.stderr).toContain('MCPKIT_UNSET_SECRET_VARIABLE');
  });
});
