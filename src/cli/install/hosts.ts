/**
 * The hosts `mcpkit install` writes to: where each keeps its MCP servers (per platform and
 * scope) and the shape of one server entry in that file. Each shape follows the host's own
 * documentation, cited in install.test.ts beside the test that checks it.
 */
import { posix, win32 } from 'node:path';

/** Where `install` runs: the platform, its environment (HOME, USERPROFILE, APPDATA…) and the project folder. */
export interface Place {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/** `user`: the host's file for every project; `project`: the file in the current folder. */
export type Scope = 'user' | 'project';

/** A server to write: a command to spawn (stdio) or a remote Streamable HTTP URL. */
export type ServerSpec =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { kind: 'remote'; url: string };

/** One host: its name on the command line, its files and its entry shape. */
export interface HostProfile {
  readonly name: string;
  readonly title: string;
  /** The file of `scope`, or undefined when the host has no such scope. */
  file(scope: Scope, place: Place): string | undefined;
  /** `json`: servers are an object under `key`; `toml`: `[mcp_servers.NAME]` tables. */
  readonly format: 'json' | 'toml';
  /** The key of the servers object (json) or table (toml). */
  readonly key: string;
  /** The entry for `spec`. @throws Error when the host cannot take that kind of server. */
  entry(spec: ServerSpec): Record<string, unknown>;
}

const pathOf = (place: Place) => (place.platform === 'win32' ? win32 : posix);

/** The home folder: USERPROFILE on Windows (as Node's os.homedir), else HOME. */
function home(place: Place): string {
  const dir = place.platform === 'win32' ? (place.env.USERPROFILE ?? place.env.HOME) : place.env.HOME;
  if (!dir)
    throw new Error(
      `cannot find the home folder: ${place.platform === 'win32' ? 'USERPROFILE' : 'HOME'} is not set`,
    );
  return dir;
}

/** The per-user application data folder: %APPDATA%, ~/Library/Application Support, or $XDG_CONFIG_HOME (~/.config). */
function appData(place: Place): string {
  const p = pathOf(place);
  if (place.platform === 'win32') return place.env.APPDATA ?? p.join(home(place), 'AppData', 'Roaming');
  if (place.platform === 'darwin') return p.join(home(place), 'Library', 'Application Support');
  return place.env.XDG_CONFIG_HOME ?? p.join(home(place), '.config');
}

/** `{ command, args, env? }`, the common stdio shape; env only when given. */
function stdio(spec: Extract<ServerSpec, { kind: 'stdio' }>): Record<string, unknown> {
  return {
    command: spec.command,
    args: spec.args,
    ...(Object.keys(spec.env).length > 0 ? { env: spec.env } : {}),
  };
}

/** A JSON host whose files are `~/<userPath>` and `<cwd>/<projectPath>`. */
function jsonHost(init: {
  name: string;
  title: string;
  key?: string;
  user: (place: Place) => string;
  project?: string[];
  remote: (url: string) => Record<string, unknown>;
  stdioType?: boolean;
}): HostProfile {
  return {
    name: init.name,
    title: init.title,
    format: 'json',
    key: init.key ?? 'mcpServers',
    file(scope, place) {
      if (scope === 'user') return init.user(place);
      return init.project ? pathOf(place).join(place.cwd, ...init.project) : undefined;
    },
    entry(spec) {
      if (spec.kind === 'remote') return init.remote(spec.url);
      return init.stdioType ? { type: 'stdio', ...stdio(spec) } : stdio(spec);
    },
  };
}

const inHome =
  (...segments: string[]) =>
  (place: Place) =>
    pathOf(place).join(home(place), ...segments);

/** Every host `install` knows, by name. */
export const HOSTS: readonly HostProfile[] = [
  jsonHost({
    name: 'claude-code',
    title: 'Claude Code',
    user: inHome('.claude.json'),
    project: ['.mcp.json'],
    remote: (url) => ({ type: 'http', url }),
    stdioType: true,
  }),
  jsonHost({
    name: 'claude-desktop',
    title: 'Claude Desktop',
    user: (place) => pathOf(place).join(appData(place), 'Claude', 'claude_desktop_config.json'),
    remote: () => {
      throw new Error(
        'Claude Desktop adds remote servers under Settings > Connectors, not in its config file; install a command instead (for example `-- npx -y mcp-remote URL`)',
      );
    },
  }),
  jsonHost({
    name: 'cursor',
    title: 'Cursor',
    user: inHome('.cursor', 'mcp.json'),
    project: ['.cursor', 'mcp.json'],
    remote: (url) => ({ url }),
  }),
  jsonHost({
    name: 'vscode',
    title: 'VS Code',
    key: 'servers',
    user: (place) => pathOf(place).join(appData(place), 'Code', 'User', 'mcp.json'),
    project: ['.vscode', 'mcp.json'],
    remote: (url) => ({ type: 'http', url }),
    stdioType: true,
  }),
  jsonHost({
    name: 'windsurf',
    title: 'Windsurf',
    user: inHome('.codeium', 'windsurf', 'mcp_config.json'),
    remote: (url) => ({ serverUrl: url }),
  }),
  jsonHost({
    name: 'gemini-cli',
    title: 'Gemini CLI',
    user: inHome('.gemini', 'settings.json'),
    project: ['.gemini', 'settings.json'],
    remote: (url) => ({ httpUrl: url }),
  }),
  {
    name: 'codex',
    title: 'Codex',
    format: 'toml',
    key: 'mcp_servers',
    file(scope, place) {
      const p = pathOf(place);
      if (scope === 'project') return p.join(place.cwd, '.codex', 'config.toml');
      return p.join(place.env.CODEX_HOME ?? p.join(home(place), '.codex'), 'config.toml');
    },
    entry: (spec) => (spec.kind === 'remote' ? { url: spec.url } : stdio(spec)),
  },
];

/** The host called `name`. @throws Error listing the known hosts. */
export function hostNamed(name: string): HostProfile {
  const host = HOSTS.find((h) => h.name === name);
  if (!host)
    throw new Error(`unknown host '${name}'; one of: ${HOSTS.map((h) => h.name).join(', ')}, mcp-json`);
  return host;
}
