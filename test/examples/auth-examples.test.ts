/**
 * The authorization examples run as documented: the development issuer, the protected
 * server, and the OAuth client (its pasted callback URLs supplied by a headless browser).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { approve } from '../support/oidc.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const children: ChildProcessWithoutNullStreams[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts an example and resolves once a stdout line matches `ready`. */
function start(name: string, args: string[], ready: RegExp, onLine?: (line: string) => void) {
  const child = spawn(process.execPath, [join(root, 'dist/examples', `${name}.js`), ...args], { cwd: root });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const done = new Promise<string>((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${name} exited ${code}: ${err}`)),
    );
  });
  done.catch(() => undefined);
  const readyLine = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      for (const line of c.toString().split('\n')) {
        out += `${line}\n`;
        if (ready.test(line)) resolve(line);
        onLine?.(line);
      }
    });
    child.once('exit', () => reject(new Error(`${name} stopped before it was ready: ${err}`)));
  });
  readyLine.catch(() => undefined);
  return { child, ready: readyLine, done };
}

it('the protected server and the OAuth client examples work with the development issuer', async () => {
  const [asPort, rsPort] = [await freePort(), await freePort()];
  await start('dev-issuer', [String(asPort)], /dev issuer at/).ready;
  const issuer = `http://127.0.0.1:${asPort}`;
  await start('protected-server', [issuer, String(rsPort)], /protected server at/).ready;
  const client = start('oauth-client', [`http://127.0.0.1:${rsPort}/mcp`], /^$/, (line) => {
    const m = /^open: (\S+)/.exec(line);
    if (m) void approve(new URL(m[1]!)).then((back) => client.child.stdin.write(`${back.href}\n`));
  });
  const out = await client.done;
  expect(out.match(/^open: /gm)).toHaveLength(2);
  expect(out).toContain("'added'");
  expect(out).toMatch(/alice sees: hello \(by alice\)/);
}, 60_000);
