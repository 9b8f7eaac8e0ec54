/**
 * The CLI's authorization: the token file (mode 0600), the browser flow through the
 * loopback listener against a real authorization server, logout, and `serve everything
 * --auth-issuer` used with `--token`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtVerifier, protectedResource } from '../auth/index.js';
import { CLI, runCli } from '../../test/support/cli.js';
import { startIssuer, type TestIssuer } from '../../test/support/oidc.js';
import { startProtected, type ProtectedServer } from '../../test/support/protected-server.js';
import { browserAuth } from './auth-flow.js';
import { runAuthCommand } from './auth-commands.js';
import { fileStore, tokenFile } from './auth-store.js';

let issuer: TestIssuer;
let server: ProtectedServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcpkit-auth-'));
  process.env.MCPKIT_CONFIG_DIR = join(dir, 'config');
  issuer = await startIssuer();
  server = await startProtected((url) =>
    protectedResource({
      resource: url,
      authorizationServers: [issuer.issuer],
      scopesSupported: ['mcp:read'],
      verifier: jwtVerifier({ issuer: issuer.issuer, audience: url }),
    }),
  );
});

afterAll(async () => {
  delete process.env.MCPKIT_CONFIG_DIR;
  await server?.close();
  await issuer?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('CLI authorization', () => {
  it('runs the browser flow through the loopback listener and keeps the tokens in a 0600 file', async () => {
    const opened: URL[] = [];
    const auth = await browserAuth(async (url) => {
      opened.push(url);
      const back = await issuer.approve(url);
      expect(back.hostname).toBe('127.0.0.1');
      await (await fetch(back)).text();
    });
    try {
      await auth.login(new URL(server.url));
    } finally {
      auth.close();
    }
    expect(opened).toHaveLength(1);
    expect(statSync(tokenFile()).mode & 0o777).toBe(0o600);
    expect(fileStore().keys()).toContain(`tokens ${server.url}`);
    expect(await runAuthCommand({ name: 'logout', url: server.url })).toContain('logged out');
    expect(fileStore().keys()).not.toContain(`tokens ${server.url}`);
  });

  it('serves everything protected with --auth-issuer, and inspects it with --token', async () => {
    const child = spawn(process.execPath, [
      CLI,
      'serve',
      'everything',
      '--port',
      '0',
      '--auth-issuer',
      issuer.issuer,
    ]);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        child.stderr.on('data', (c: Buffer) => {
          err += c.toString();
          const m = /serving everything at (\S+)/.exec(err);
          if (m) resolve(m[1]!);
        });
        child.once('exit', () => reject(new Error(err)));
      });
      const refused = await fetch(url, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('/.well-known/oauth-protected-resource/mcp');
      const basic = Buffer.from(`${issuer.machine.clientId}:${issuer.machine.clientSecret}`).toString(
        'base64',
      );
      const answer = await fetch(`${issuer.issuer}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource: url, scope: 'mcp:read' }),
      });
      const { access_token: token } = (await answer.json()) as { access_token: string };
      const run = await runCli(['call', 'echo', url, 'text=hi', '--token', token]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('hi');
      const bad = await runCli(['inspect', url, '--token', 'forged', '--connect-timeout', '5000']);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).not.toContain(token);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
