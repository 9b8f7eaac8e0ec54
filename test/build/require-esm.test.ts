/**
 * CommonJS consumers: a `.cjs` file outside the package, with mcpkit installed in its
 * node_modules (a link to this checkout's built package), `require()`s every subpath in
 * package.json "exports" on Node ≥ 20.19 (require of ES modules, no flag) and uses what it
 * got: one entry point's classes are the same as another's.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
};
const subpaths = Object.keys(pkg.exports).map((key) => (key === '.' ? 'mcpkit' : `mcpkit/${key.slice(2)}`));

const consumer = mkdtempSync(join(tmpdir(), 'mcpkit-cjs-'));
afterAll(() => rmSync(consumer, { recursive: true, force: true }));

describe('require() from CommonJS', () => {
  it('loads every subpath and works', () => {
    mkdirSync(join(consumer, 'node_modules'));
    symlinkSync(root, join(consumer, 'node_modules', 'mcpkit'), 'dir');
    const script = join(consumer, 'main.cjs');
    writeFileSync(
      script,
      `const loaded = {};
      for (const name of ${JSON.stringify(subpaths)}) loaded[name] = Object.keys(require(name)).length;
      const { createServer } = require('mcpkit/server');
      const { createHttpHandler } = require('mcpkit/http');
      const { WireError } = require('mcpkit');
      const server = createServer({ name: 'cjs', version: '1.0.0' });
      server.tool('echo', { description: 'Echo', inputSchema: { type: 'object' } }, () => 'hi');
      const handler = createHttpHandler(server);
      handler(new Request('http://127.0.0.1/mcp', { method: 'GET' })).then((response) => {
        console.log(JSON.stringify({ loaded, status: response.status, wire: typeof WireError.of }));
        handler.close();
      });`,
    );
    const run = spawnSync(process.execPath, [script], { cwd: consumer, encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).not.toMatch(/Error/);
    const out = JSON.parse(run.stdout) as { loaded: Record<string, number>; status: number; wire: string };
    for (const name of subpaths) expect(out.loaded[name], name).toBeGreaterThan(0);
    expect(out.status).toBe(406); // a GET without Accept: text/event-stream, answered by the endpoint
    expect(out.wire).toBe('function');
  });
});
