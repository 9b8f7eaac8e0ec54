import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultQualify, loadHostConfig } from './index.js';
import { resolveServers } from './config.js';
import { isValidName } from './names.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpkit-host-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('qualified names', () => {
  it.each([
    ['fs', 'read_file', 'fs__read_file'],
    ['my server', 'read file', 'my_server__read_file'],
    ['s', 'a/b:c', 's__a_b_c'],
  ])('%s + %s → %s', (server, name, qualified) => {
    expect(defaultQualify(server, name)).toBe(qualified);
  });

  it('shortens long names to 64 characters, keeping them apart with a hash', () => {
    const a = defaultQualify('server', 'x'.repeat(80));
    const b = defaultQualify('server', `${'x'.repeat(79)}y`);
    expect(a).toHaveLength(64);
    expect(isValidName(a)).toBe(true);
    expect(a).not.toBe(b);
  });
});

describe('host configuration', () => {
  it.each([
    [
      'a server without command or url',
      { a: { args: ['x'] } },
      'mcpServers.a: needs "command" (a stdio server) or "url"',
    ],
    ['both command and url', { a: { command: 'x', url: 'http://h/mcp' } }, 'not both'],
    ['an empty command', { a: { command: '' } }, 'mcpServers.a.command: command must not be empty'],
    ['a key nobody writes', { a: { command: 'x', comand: 'y' } }, 'mcpServers.a: Unrecognized key: "comand"'],
    ['args that are not strings', { a: { command: 'x', args: [1] } }, 'mcpServers.a.args.0'],
    ['a url that is not a URL', { a: { url: 'not a url' } }, 'mcpServers.a.url: not a URL'],
    ['type stdio with a url', { a: { type: 'stdio', url: 'http://h/mcp' } }, 'type "stdio" needs "command"'],
    ['an empty server name', { '': { command: 'x' } }, 'mcpServers: server name: Too small'],
  ])('rejects %s, naming the server and key', (_what, servers, message) => {
    expect(() => resolveServers(servers, {})).toThrow(message);
  });

  it('interpolates ${VAR}, ${env:VAR} and ${VAR:-default} and drops disabled servers', () => {
    const servers = resolveServers(
      {
        s: { command: '${BIN}', args: ['--dir', '${env:HOME_DIR}'], env: { TOKEN: '${TOKEN:-none}' } },
        h: { url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${TOKEN:-x}' } },
        off: { command: 'x', disabled: true },
      },
      { BIN: 'node', HOME_DIR: '/home/ada', HOST: 'example.com' },
    );
    expect(servers).toEqual([
      { name: 's', command: 'node', args: ['--dir', '/home/ada'], env: { TOKEN: 'none' } },
      { name: 'h', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
    ]);
  });

  it('refuses a header name that is not an HTTP token, or a value with CR or LF, naming where', () => {
    const http = (headers: Record<string, string>) => ({ s: { url: 'https://example.com/mcp', headers } });
    expect(() => resolveServers(http({ 'X Api Key': 'k' }), {})).toThrow(
      /mcpServers\.s\.headers.*header name must be an HTTP token/,
    );
    expect(() => resolveServers(http({ 'X-Api-Key': 'k\r\nInjected: 1' }), {})).toThrow(
      /mcpServers\.s\.headers.*must not hold CR, LF or NUL/,
    );
    expect(resolveServers(http({ 'X-Api-Key': '${KEY}' }), { KEY: 'k' })[0]?.headers).toEqual({
      'X-Api-Key': 'k',
    });
  });

  it('names an unset variable and where it is used', () => {
    expect(() => resolveServers({ s: { command: 'x', env: { KEY: '${API_KEY}' } } }, {})).toThrow(
      'mcpServers.s.env.KEY: environment variable API_KEY is not set',
    );
  });

  it('reads the files Claude Desktop and VS Code write', async () => {
    const claude = file('claude.json', {
      mcpServers: { fs: { command: 'npx', args: ['x'] } },
      globalShortcut: 'x',
    });
    expect(await loadHostConfig(claude)).toEqual({ fs: { command: 'npx', args: ['x'] } });
    const vscode = file('vscode.json', {
      servers: { gh: { type: 'http', url: 'https://api.example.com/mcp' } },
    });
    expect(await loadHostConfig(vscode)).toEqual({
      gh: { type: 'http', url: 'https://api.example.com/mcp' },
    });
  });

  it('rejects unknown files with clear errors', async () => {
    await expect(loadHostConfig(join(dir, 'missing.json'))).rejects.toThrow('cannot read');
    await expect(loadHostConfig(file('junk.json', '{oops'))).rejects.toThrow('is not JSON');
    const deep = `{"mcpServers":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    await expect(loadHostConfig(file('deep.json', deep))).rejects.toThrow(
      /deep\.json is nested deeper than 256 levels/,
    );
    await expect(loadHostConfig(file('other.json', { tools: [] }))).rejects.toThrow(
      'expected an object with "mcpServers"',
    );
    await expect(loadHostConfig(file('bad.json', { mcpServers: { a: { cmd: 'x' } } }))).rejects.toThrow(
      /bad\.json: mcpServers\.a: Unrecognized key: "cmd"/,
    );
  });
});
