/**
 * `mcpkit registry-json`: the server.json it writes is valid against the MCP Registry's
 * released JSON Schema (2025-12-11, draft-07), carries the server's own identity, and a
 * definition the Registry would refuse fails with a clear usage error instead.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { runCli } from '../../test/support/cli.js';
import { EVERYTHING_NAME, EVERYTHING_VERSION } from '../../servers/everything/server.js';
import { serverJson } from './registry-json.js';

const SCHEMA = join(import.meta.dirname, '../../test/spec/extensions/registry/server.schema.json');
const registry = (() => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object);
})();

const dir = mkdtempSync(join(tmpdir(), 'registry-json-'));
function packageFile(fields: Record<string, unknown>): string {
  const file = join(dir, `package-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(fields));
  return file;
}

describe('mcpkit registry-json', () => {
  it("writes a schema-valid server.json from the everything server's serverInfo and package.json", async () => {
    const pkg = packageFile({
      name: '@example/everything',
      version: EVERYTHING_VERSION,
      mcpName: 'io.github.example/everything',
      repository: {
        type: 'git',
        url: 'git+https://github.com/example/mcp.git',
        directory: 'servers/everything',
      },
    });
    const out = join(dir, 'server.json');
    const run = await runCli([
      'registry-json',
      '--package',
      pkg,
      '--remote',
      'https://mcp.example.com/mcp',
      '--out',
      out,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const written = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
    expect(registry(written), JSON.stringify(registry.errors)).toBe(true);
    expect(written).toMatchObject({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'io.github.example/everything',
      title: 'mcpkit everything',
      version: EVERYTHING_VERSION,
      repository: {
        url: 'https://github.com/example/mcp',
        source: 'github',
        subfolder: 'servers/everything',
      },
      packages: [{ registryType: 'npm', identifier: '@example/everything', transport: { type: 'stdio' } }],
      remotes: [{ type: 'streamable-http', url: 'https://mcp.example.com/mcp' }],
    });
    expect(written.icons).toBeUndefined(); // the everything icon is a data: URI; the Registry takes https only
  });

  it('refuses a name that is not reverse-DNS and a version the server does not report', async () => {
    const unnamed = await runCli([
      'registry-json',
      '--package',
      packageFile({ version: EVERYTHING_VERSION }),
    ]);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain(`not \`${EVERYTHING_NAME}\`: set "mcpName"`);
    const behind = packageFile({ name: 'x', version: '0.0.1', mcpName: 'io.github.example/x' });
    const stale = await runCli(['registry-json', '--package', behind]);
    expect(stale.code).toBe(2);
    expect(stale.stderr).toMatch(/the server says version .* but x is 0\.0\.1/);
  });

  it('is schema-valid for package.json shorthands and https icons, and refuses a long description', () => {
    const info = {
      name: 'weather',
      version: '1.0.0',
      description: 'Forecasts.',
      websiteUrl: 'https://example.com',
      icons: [{ src: 'https://example.com/i.png', sizes: ['48x48'] }, { src: 'data:image/png;base64,AA' }],
    };
    const pkg = { name: 'weather', version: '1.0.0', repository: 'gitlab:acme/weather' };
    const out = serverJson(info, pkg, { serverName: 'com.acme/weather', remotes: [] });
    expect(registry(out), JSON.stringify(registry.errors)).toBe(true);
    expect(out.repository).toEqual({ url: 'https://gitlab.com/acme/weather', source: 'gitlab' });
    expect(out.icons).toEqual([info.icons[0]]);
    const long = { ...info, description: 'x'.repeat(101) };
    expect(() => serverJson(long, pkg, { serverName: 'com.acme/weather', remotes: [] })).toThrow(/100/);
  });
});
