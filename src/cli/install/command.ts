/**
 * `mcpkit install`: writes a server into a host's MCP configuration (Claude Code, Claude
 * Desktop, Cursor, VS Code, Windsurf, Gemini CLI, Codex), lists what the hosts have
 * (`--list`), or prints an entry for any other host (`mcp-json`). See hosts.ts for the files.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CliError } from '../errors.js';
import { addServer, serversIn } from './config-file.js';
import { HOSTS, hostNamed, type Place, type Scope, type ServerSpec } from './hosts.js';

/** The help page of `mcpkit install`. */
const INSTALL_USAGE = `Usage: mcpkit install HOST [--name NAME] [--env KEY=VALUE]... [--scope user|project] [--force] -- COMMAND [ARGS...]
       mcpkit install HOST URL [--name NAME] [--scope user|project] [--force]
       mcpkit install mcp-json [--name NAME] [--env KEY=VALUE]... (-- COMMAND [ARGS...] | URL)
       mcpkit install --list

Writes a server into a host's MCP configuration file, keeping every other entry and setting,
and prints what it wrote and where. The host starts COMMAND (stdio), or connects to URL
(Streamable HTTP). An entry of the same name is kept unless --force is given.

Hosts: ${HOSTS.map((h) => h.name).join(', ')}
  mcp-json                  print the entry as {"mcpServers": {...}} for any other host

  --name NAME               the server's name in the host (default: from the file or command)
  --env KEY=VALUE           an environment variable for COMMAND (repeatable)
  --scope user|project      the host's file for every project (default) or the one in the
                            current folder (claude-code .mcp.json, cursor, vscode, gemini-cli, codex)
  --force                   replace an entry of the same name
  --list                    show which hosts' files exist and the servers in them`;

/** A parsed `install` command line. */
interface InstallArgs {
  host: string | undefined;
  spec: ServerSpec | undefined;
  name: string | undefined;
  scope: Scope;
  force: boolean;
  list: boolean;
  help: boolean;
}

/** Parses `argv` (after `install`). @throws CliError for a wrong command line. */
function parseInstall(argv: readonly string[]): InstallArgs {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const command = split === -1 ? undefined : argv.slice(split + 1);
  let parsed;
  try {
    parsed = parseArgs({
      args: [...own],
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        env: { type: 'string', multiple: true },
        scope: { type: 'string' },
        force: { type: 'boolean' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new CliError(`install: ${(error as Error).message}`);
  }
  const { values, positionals } = parsed;
  const [host, url, ...extra] = positionals;
  if (extra.length > 0) throw new CliError(`install takes no \`${extra[0]}\`; put the command after --`);
  const scope = values.scope ?? 'user';
  if (scope !== 'user' && scope !== 'project') throw new CliError('--scope is user or project');
  return {
    host,
    spec: specOf(url, command, values.env ?? []),
    name: values.name,
    scope,
    force: values.force === true,
    list: values.list === true,
    help: values.help === true,
  };
}

function specOf(
  url: string | undefined,
  command: string[] | undefined,
  env: string[],
): ServerSpec | undefined {
  if (url !== undefined && command !== undefined) throw new CliError('give a URL or `-- COMMAND`, not both');
  if (url !== undefined) {
    if (!/^https?:\/\//.test(url))
      throw new CliError(`'${url}' is not an http(s) URL; a command goes after --`);
    if (env.length > 0) throw new CliError('--env is for a command; a remote server takes none');
    return { kind: 'remote', url };
  }
  if (command === undefined) return undefined;
  const [program, ...args] = command;
  if (program === undefined) throw new CliError('nothing after --: give the command that starts the server');
  return { kind: 'stdio', command: program, args, env: envOf(env) };
}

function envOf(pairs: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new CliError(`--env takes KEY=VALUE, not '${pair}'`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

/** The name a server gets without --name: the server file's name, else the command's or the URL's host. */
function defaultName(spec: ServerSpec): string {
  if (spec.kind === 'remote')
    return new URL(spec.url).hostname.split('.').filter((p) => p !== 'www')[0] ?? 'server';
  const file =
    spec.args.find((a) => /\.(m|c)?[jt]s$/.test(a)) ??
    spec.args.find((a) => !a.startsWith('-')) ??
    spec.command;
  const base = file.split(/[\\/]/).at(-1) ?? file;
  return base.replace(/\.(m|c)?[jt]s$/, '').replace(/^@[^/]*\//, '') || 'server';
}

/** Runs `install` with `argv` (after the word install) at `place`; returns the text to print. */
export async function runInstall(argv: readonly string[], place: Place): Promise<string> {
  const args = parseInstall(argv);
  if (args.help || (args.host === undefined && !args.list)) return INSTALL_USAGE;
  if (args.list) return listHosts(place);
  if (args.spec === undefined) throw new CliError('install needs `-- COMMAND [ARGS...]` or a URL');
  const name = args.name ?? defaultName(args.spec);
  if (args.host === 'mcp-json') {
    const entry =
      args.spec.kind === 'remote'
        ? { type: 'http', url: args.spec.url }
        : hostNamed('cursor').entry(args.spec);
    return JSON.stringify({ mcpServers: { [name]: entry } }, null, 2);
  }
  const host = hostNamed(args.host!);
  const path = host.file(args.scope, place);
  if (path === undefined) throw new CliError(`${host.title} has no project file; use --scope user`);
  let entry;
  try {
    entry = host.entry(args.spec);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const { replaced } = await addServer(host, path, { name, entry, force: args.force });
  return `${replaced ? 'replaced' : 'added'} server '${name}' in ${path} (${host.title}):\n${JSON.stringify(entry, null, 2)}`;
}

/** Every host file that exists, with the servers in it. */
async function listHosts(place: Place): Promise<string> {
  const lines: string[] = [];
  for (const host of HOSTS)
    for (const scope of ['user', 'project'] as const) {
      const path = host.file(scope, place);
      if (path === undefined || !existsSync(path)) continue;
      const servers = await serversIn(host, path);
      lines.push(`${host.name} (${scope}) ${path}`);
      for (const [name, entry] of Object.entries(servers)) lines.push(`  ${name}: ${summary(entry)}`);
      if (Object.keys(servers).length === 0) lines.push('  (no servers)');
    }
  return lines.length > 0 ? lines.join('\n') : 'no host configuration found';
}

function summary(entry: unknown): string {
  const e = (entry ?? {}) as Record<string, unknown>;
  const url = e.url ?? e.httpUrl ?? e.serverUrl;
  if (typeof url === 'string') return url;
  const args = Array.isArray(e.args) ? e.args.map(String) : [];
  return [String(e.command ?? '?'), ...args].join(' ');
}

/** `mcpkit install …` from the command line: prints the result, resolves with the exit code. */
export async function installCommand(argv: readonly string[]): Promise<number> {
  const text = await runInstall(argv, { platform: process.platform, env: process.env, cwd: process.cwd() });
  process.stdout.write(`${text}\n`);
  return argv.length === 0 ? 2 : 0;
}
