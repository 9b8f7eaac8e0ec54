/**
 * The files `mcpkit inspect --ui --config FILE` reads (issue 37): an `mcpServers` file through
 * the host's own parser (its errors, `${VAR}` interpolation, disabled servers), a Registry
 * `server.json` (remotes and packages: npm, PyPI, OCI run over stdio; other kinds listed as
 * unsupported), and the bound on the number of servers; and the `--config` flag.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../args.js';
import { loadCatalog, MAX_CATALOG_SERVERS } from './catalog.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpkit-catalog-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('loadCatalog', () => {
  it('reads mcpServers as the host does: env, cwd, headers, era, ${VAR}, disabled left out', async () => {
    process.env.MCPKIT_CATALOG_TEST_TOKEN = 'abc';
    const path = file('mcp.json', {
      mcpServers: {
        fs: { command: 'npx', args: ['-y', 'server-fs', '/tmp'], env: { K: 'v' }, cwd: '/tmp' },
        api: {
          url: 'http://127.0.0.1:9/mcp',
          headers: { authorization: 'Bearer ${MCPKIT_CATALOG_TEST_TOKEN}' },
          era: 'legacy',
        },
        off: { command: 'x', disabled: true },
      },
    });
    expect(await loadCatalog(path)).toEqual([
      {
        name: 'fs',
        transport: 'stdio',
        where: 'npx -y server-fs /tmp',
        era: 'auto',
        target: {
          kind: 'stdio',
          command: 'npx',
          args: ['-y', 'server-fs', '/tmp'],
          env: { K: 'v' },
          cwd: '/tmp',
        },
      },
      {
        name: 'api',
        transport: 'http',
        where: 'http://127.0.0.1:9/mcp',
        era: 'legacy',
        target: { kind: 'http', url: 'http://127.0.0.1:9/mcp', headers: { authorization: 'Bearer abc' } },
      },
    ]);
  });

  it("reports the host parser's errors, naming the server and key", async () => {
    const path = file('bad.json', { mcpServers: { broken: { command: 'a', url: 'http://x' } } });
    await expect(loadCatalog(path)).rejects.toThrow(/broken.*not both/);
    await expect(loadCatalog(file('notjson.json', '{'))).rejects.toThrow(/not JSON/);
  });

  it('reads a Registry server.json: remotes, npm/PyPI/OCI packages over stdio, the rest unsupported', async () => {
    const path = file('server.json', {
      name: 'io.github.user/weather',
      version: '1.2.0',
      remotes: [
        { type: 'streamable-http', url: 'https://weather.example/mcp' },
        { type: 'sse', url: 'https://weather.example/sse' },
      ],
      packages: [
        {
          registryType: 'npm',
          identifier: '@user/weather',
          version: '1.2.0',
          transport: { type: 'stdio' },
          packageArguments: [
            { type: 'named', name: '--units', value: 'metric' },
            { type: 'positional', value: 'eu' },
          ],
        },
        { registryType: 'pypi', identifier: 'weather-mcp', version: '1.2.0', transport: { type: 'stdio' } },
        {
          registryType: 'oci',
          identifier: 'ghcr.io/user/weather',
          version: '1.2.0',
          transport: { type: 'stdio' },
        },
        { registryType: 'mcpb', identifier: 'https://x/y.mcpb', transport: { type: 'stdio' } },
      ],
    });
    const entries = await loadCatalog(path);
    expect(entries.map((e) => [e.name, e.transport, e.where])).toEqual([
      ['io.github.user/weather remote 1', 'http', 'https://weather.example/mcp'],
      ['io.github.user/weather remote 2', 'unsupported', 'https://weather.example/sse'],
      ['io.github.user/weather npm 1', 'stdio', 'npx -y @user/weather@1.2.0 --units metric eu'],
      ['io.github.user/weather pypi 2', 'stdio', 'uvx weather-mcp==1.2.0'],
      ['io.github.user/weather oci 3', 'stdio', 'docker run -i --rm ghcr.io/user/weather:1.2.0'],
      ['io.github.user/weather mcpb 4', 'unsupported', 'https://x/y.mcpb'],
    ]);
    expect(entries[1]?.target).toBeUndefined();
  });

  it(`refuses more than ${MAX_CATALOG_SERVERS} servers, and a file naming none`, async () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_CATALOG_SERVERS + 1 }, (_, i) => [`s${i}`, { command: 'x' }]),
    );
    await expect(loadCatalog(file('many.json', { mcpServers: many }))).rejects.toThrow(/at most 100/);
    await expect(loadCatalog(file('none.json', { mcpServers: {} }))).rejects.toThrow(/names no server/);
  });
});

describe('--config', () => {
  it('goes with --ui only', () => {
    expect(parseCommandLine(['inspect', '--ui', '--config', 'mcp.json'])).toMatchObject({
      name: 'inspect',
      ui: true,
      config: 'mcp.json',
    });
    expect(() => parseCommandLine(['inspect', '--config', 'mcp.json'])).toThrow(/--config needs --ui/);
  });

  it("exits 2 (usage) with the parser's message for a file it cannot use", () => {
    const cli = fileURLToPath(new URL('../../../dist/src/cli/main.js', import.meta.url));
    const bad = file('both.json', { mcpServers: { a: { command: 'x', url: 'http://127.0.0.1:9/' } } });
    const run = spawnSync(process.execPath, [cli, 'inspect', '--ui', '--config', bad], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/mcpServers\.a: give either "command" \(stdio\) or "url"/);
  });
});
