import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runInstall } from './command.js';
import { hostNamed, type Place } from './hosts.js';

/* A parsed configuration file, read loosely: the tests index into it by the host's documented keys. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;

let home: string;
let project: string;
let place: Place;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'mcpkit-install-home-'));
  project = await mkdtemp(join(tmpdir(), 'mcpkit-install-project-'));
  place = { platform: 'linux', env: { HOME: home }, cwd: project };
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(project, { recursive: true, force: true });
});

const COMMAND = ['--', 'npx', 'mcpkit', 'dev', 'server.ts', '--stdio'];

async function seed(path: string, value: unknown): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}
const json = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as Loose;

/** A host file with another server and another setting, which install must keep. */
const OTHER = { command: 'other', args: ['x'] };

describe('mcpkit install: each host’s documented file and entry, other entries kept', () => {
  // https://code.claude.com/docs/en/mcp — project servers in .mcp.json, user servers in
  // ~/.claude.json, both under "mcpServers"; stdio entries {type:"stdio",command,args,env},
  // remote {type:"http",url}.
  it('claude-code: ~/.claude.json (user) and .mcp.json (project)', async () => {
    const user = join(home, '.claude.json');
    await seed(user, { numStartups: 7, projects: { '/p': {} }, mcpServers: { other: OTHER } });
    const text = await runInstall([...['claude-code', '--env', 'TOKEN=t'], ...COMMAND], place);
    expect(text).toContain(user);
    const written = await json(user);
    expect(written.numStartups).toBe(7);
    expect(written.projects).toEqual({ '/p': {} });
    expect(written.mcpServers).toEqual({
      other: OTHER,
      server: {
        type: 'stdio',
        command: 'npx',
        args: ['mcpkit', 'dev', 'server.ts', '--stdio'],
        env: { TOKEN: 't' },
      },
    });
    await runInstall(
      ['claude-code', 'https://example.com/mcp', '--scope', 'project', '--name', 'remote'],
      place,
    );
    expect((await json(join(project, '.mcp.json'))).mcpServers).toEqual({
      remote: { type: 'http', url: 'https://example.com/mcp' },
    });
  });

  // https://modelcontextprotocol.io/quickstart/user — claude_desktop_config.json in
  // ~/Library/Application Support/Claude (macOS), %APPDATA%\Claude (Windows); "mcpServers"
  // with {command,args,env}. Linux builds use ~/.config/Claude.
  it('claude-desktop: the per-platform application folder; remote URLs refused with what to do', async () => {
    const linux = join(home, '.config', 'Claude', 'claude_desktop_config.json');
    await seed(linux, { globalShortcut: 'Ctrl+Space', mcpServers: { other: OTHER } });
    await runInstall(['claude-desktop', ...COMMAND], place);
    const written = await json(linux);
    expect(written.globalShortcut).toBe('Ctrl+Space');
    expect(written.mcpServers.server).toEqual({
      command: 'npx',
      args: ['mcpkit', 'dev', 'server.ts', '--stdio'],
    });
    expect(written.mcpServers.other).toEqual(OTHER);
    await expect(runInstall(['claude-desktop', 'https://example.com/mcp'], place)).rejects.toThrow(
      /Connectors/,
    );

    await runInstall(['claude-desktop', ...COMMAND], { ...place, platform: 'darwin' });
    await json(join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json'));
    const windows: Place = {
      platform: 'win32',
      env: { USERPROFILE: 'C:\\Users\\ada', APPDATA: 'D:\\Roaming' },
      cwd: 'C:\\work',
    };
    expect(hostNamed('claude-desktop').file('user', windows)).toBe(
      'D:\\Roaming\\Claude\\claude_desktop_config.json',
    );
    expect(hostNamed('claude-desktop').file('project', windows)).toBeUndefined();
  });

  // https://cursor.com/docs/mcp — ~/.cursor/mcp.json (global), .cursor/mcp.json (project);
  // "mcpServers" with {command,args,env} or {url}.
  it('cursor: ~/.cursor/mcp.json and .cursor/mcp.json', async () => {
    const user = join(home, '.cursor', 'mcp.json');
    await seed(user, { mcpServers: { other: OTHER } });
    await runInstall(['cursor', 'https://example.com/mcp', '--name', 'remote'], place);
    expect((await json(user)).mcpServers).toEqual({
      other: OTHER,
      remote: { url: 'https://example.com/mcp' },
    });
    await runInstall(['cursor', '--scope', 'project', ...COMMAND], place);
    expect((await json(join(project, '.cursor', 'mcp.json'))).mcpServers.server.command).toBe('npx');
  });

  // https://code.visualstudio.com/docs/copilot/reference/mcp-configuration — .vscode/mcp.json
  // or the user profile's mcp.json; top-level "servers", each with "type" (stdio, http).
  it('vscode: .vscode/mcp.json and the user profile, key "servers" with "type"', async () => {
    const workspace = join(project, '.vscode', 'mcp.json');
    await seed(workspace, { inputs: [{ id: 'key', type: 'promptString' }], servers: { other: OTHER } });
    await runInstall(['vscode', '--scope', 'project', ...COMMAND], place);
    const written = await json(workspace);
    expect(written.inputs).toEqual([{ id: 'key', type: 'promptString' }]);
    expect(written.servers.server).toEqual({
      type: 'stdio',
      command: 'npx',
      args: ['mcpkit', 'dev', 'server.ts', '--stdio'],
    });
    expect(written.mcpServers).toBeUndefined();
    await runInstall(['vscode', 'http://127.0.0.1:3000/mcp', '--name', 'local'], place);
    expect((await json(join(home, '.config', 'Code', 'User', 'mcp.json'))).servers).toEqual({
      local: { type: 'http', url: 'http://127.0.0.1:3000/mcp' },
    });
    await runInstall(['vscode', ...COMMAND], { ...place, platform: 'darwin' });
    await json(join(home, 'Library', 'Application Support', 'Code', 'User', 'mcp.json'));
  });

  // https://docs.windsurf.com/windsurf/cascade/mcp — ~/.codeium/windsurf/mcp_config.json,
  // "mcpServers" with {command,args,env} or {serverUrl}.
  it('windsurf: ~/.codeium/windsurf/mcp_config.json, remote as serverUrl', async () => {
    const user = join(home, '.codeium', 'windsurf', 'mcp_config.json');
    await seed(user, { mcpServers: { other: OTHER } });
    await runInstall(['windsurf', 'https://example.com/mcp', '--name', 'remote'], place);
    expect((await json(user)).mcpServers).toEqual({
      other: OTHER,
      remote: { serverUrl: 'https://example.com/mcp' },
    });
    await expect(runInstall(['windsurf', '--scope', 'project', ...COMMAND], place)).rejects.toThrow(
      /no project file/,
    );
  });

  // https://geminicli.com/docs/tools/mcp-server/ — ~/.gemini/settings.json (user),
  // .gemini/settings.json (project); "mcpServers" with {command,args,env}; Streamable HTTP as
  // {httpUrl} (url is the SSE transport).
  it('gemini-cli: ~/.gemini/settings.json, remote as httpUrl, other settings kept', async () => {
    const user = join(home, '.gemini', 'settings.json');
    await seed(user, { theme: 'Dracula', mcpServers: { other: OTHER } });
    await runInstall(['gemini-cli', 'https://example.com/mcp', '--name', 'remote'], place);
    const written = await json(user);
    expect(written.theme).toBe('Dracula');
    expect(written.mcpServers).toEqual({ other: OTHER, remote: { httpUrl: 'https://example.com/mcp' } });
    await runInstall(['gemini-cli', '--scope', 'project', ...COMMAND], place);
    expect((await json(join(project, '.gemini', 'settings.json'))).mcpServers.server.args).toContain(
      'server.ts',
    );
  });

  // https://developers.openai.com/codex/mcp — ~/.codex/config.toml (CODEX_HOME), or
  // .codex/config.toml in a trusted project; one [mcp_servers.NAME] table with command,
  // args, env, or url for Streamable HTTP.
  it('codex: [mcp_servers.NAME] in ~/.codex/config.toml, comments and other tables kept', async () => {
    const user = join(home, '.codex', 'config.toml');
    const before = [
      '# my settings',
      'model = "gpt-5" # inline comment',
      '',
      '[mcp_servers.other]',
      'command = "other"',
      'args = ["x"]',
      '',
      '[profiles.fast]',
      'model = "mini"',
      '',
    ].join('\n');
    await seed(user, before);
    await runInstall(['codex', '--env', 'A=1', ...COMMAND], place);
    const text = await readFile(user, 'utf8');
    expect(text.startsWith(before.trimEnd())).toBe(true);
    const parsed = parse(text) as Loose;
    expect(parsed.model).toBe('gpt-5');
    expect(parsed.profiles).toEqual({ fast: { model: 'mini' } });
    expect(parsed.mcp_servers).toEqual({
      other: { command: 'other', args: ['x'] },
      server: { command: 'npx', args: ['mcpkit', 'dev', 'server.ts', '--stdio'], env: { A: '1' } },
    });

    await runInstall(['codex', '--force', '--name', 'other', 'https://example.com/mcp'], place);
    const replaced = await readFile(user, 'utf8');
    expect(replaced).toContain('# my settings');
    expect((parse(replaced) as Loose).mcp_servers.other).toEqual({ url: 'https://example.com/mcp' });
    expect((parse(replaced) as Loose).profiles).toEqual({ fast: { model: 'mini' } });
  });

  it('codex: CODEX_HOME is respected, and an inline-table entry is replaced too', async () => {
    const codexHome = join(home, 'codex-home');
    await seed(join(codexHome, 'config.toml'), '[mcp_servers]\nold = { command = "a" }\n');
    await runInstall(['codex', '--force', '--name', 'old', ...COMMAND], {
      ...place,
      env: { HOME: home, CODEX_HOME: codexHome },
    });
    const parsed = parse(await readFile(join(codexHome, 'config.toml'), 'utf8')) as Loose;
    expect(parsed.mcp_servers.old.command).toBe('npx');
  });
});

describe('mcpkit install: safety', () => {
  it('refuses to overwrite an entry without --force, and leaves the file as it was', async () => {
    const user = join(home, '.cursor', 'mcp.json');
    const original = JSON.stringify({ mcpServers: { server: OTHER } });
    await seed(user, original);
    await expect(runInstall(['cursor', ...COMMAND], place)).rejects.toThrow(
      /already has a server 'server'.*--force/,
    );
    expect(await readFile(user, 'utf8')).toBe(original);
    await runInstall(['cursor', '--force', ...COMMAND], place);
    expect((await json(user)).mcpServers.server.command).toBe('npx');
  });

  it('writes atomically: the file’s mode is kept and no temporary file is left', async () => {
    const user = join(home, '.gemini', 'settings.json');
    await seed(user, { theme: 'x' });
    await chmod(user, 0o640);
    await runInstall(['gemini-cli', ...COMMAND], place);
    expect((await stat(user)).mode & 0o777).toBe(0o640);
    expect(await readdir(join(home, '.gemini'))).toEqual(['settings.json']);
  });

  it('refuses a JSON file it cannot parse (a comment) without touching it', async () => {
    const user = join(home, '.cursor', 'mcp.json');
    await seed(user, '{ // mine\n "mcpServers": {} }');
    await expect(runInstall(['cursor', ...COMMAND], place)).rejects.toThrow(/cannot be read as JSON/);
    expect(await readFile(user, 'utf8')).toContain('// mine');
  });

  it('names hosts it does not know, and says what a command line lacks', async () => {
    await expect(runInstall(['emacs', ...COMMAND], place)).rejects.toThrow(
      /unknown host 'emacs'.*claude-code/,
    );
    await expect(runInstall(['cursor'], place)).rejects.toThrow(/-- COMMAND/);
    await expect(runInstall(['cursor', '--env', 'NOEQUALS', ...COMMAND], place)).rejects.toThrow(/KEY=VALUE/);
  });
});

describe('mcpkit install --list and mcp-json', () => {
  it('--list shows each host file found and its servers', async () => {
    await seed(join(home, '.cursor', 'mcp.json'), { mcpServers: { other: OTHER } });
    await seed(
      join(home, '.codex', 'config.toml'),
      '[mcp_servers.remote]\nurl = "https://example.com/mcp"\n',
    );
    const text = await runInstall(['--list'], place);
    expect(text).toContain(`cursor (user) ${join(home, '.cursor', 'mcp.json')}`);
    expect(text).toContain('  other: other x');
    expect(text).toContain('  remote: https://example.com/mcp');
    expect(text).not.toContain('claude-code');
  });

  it('mcp-json prints an mcpServers entry and writes nothing', async () => {
    const text = await runInstall(['mcp-json', '--name', 'demo', '--env', 'K=V', ...COMMAND], place);
    expect(JSON.parse(text)).toEqual({
      mcpServers: {
        demo: { command: 'npx', args: ['mcpkit', 'dev', 'server.ts', '--stdio'], env: { K: 'V' } },
      },
    });
    expect(await readdir(home)).toEqual([]);
  });

  it('Windows paths come from USERPROFILE and APPDATA', () => {
    const windows: Place = {
      platform: 'win32',
      env: { USERPROFILE: 'C:\\Users\\ada', APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' },
      cwd: 'C:\\work',
    };
    expect(hostNamed('cursor').file('user', windows)).toBe('C:\\Users\\ada\\.cursor\\mcp.json');
    expect(hostNamed('vscode').file('user', windows)).toBe(
      'C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\mcp.json',
    );
    expect(hostNamed('vscode').file('project', windows)).toBe('C:\\work\\.vscode\\mcp.json');
    expect(hostNamed('codex').file('user', windows)).toBe('C:\\Users\\ada\\.codex\\config.toml');
    expect(hostNamed('claude-code').file('user', windows)).toBe('C:\\Users\\ada\\.claude.json');
  });
});
