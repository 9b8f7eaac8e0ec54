/**
 * `mcpkit registry-json`: the MCP Registry's `server.json` for a server, its identity read
 * from the server itself (serverInfo) and its package from package.json, so the entry
 * says what the server says. Written against the Registry's released schema 2025-12-11.
 * Source: modelcontextprotocol/registry docs/reference/server-json (generic-server-json.md,
 * official-registry-requirements.md); static schemas/2025-12-11/server.schema.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SERVER_CARD_NAME_PATTERN, type Implementation } from '../core/index.js';
import type { ClientFlags, Target } from './args.js';
import { CliError } from './errors.js';
import { refuseCredentials } from './host-args.js';

/** The `$schema` of the `server.json` written: the Registry's latest released schema. */
const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** `mcpkit registry-json`. */
export type RegistryJsonCommand =
  | { name: 'registry-json'; help: true }
  | {
      name: 'registry-json';
      help?: false;
      target: Target;
      packageFile: string;
      serverName?: string;
      remotes: string[];
      out?: string;
    };

/** `--help` of `mcpkit registry-json`. */
export const REGISTRY_JSON_USAGE = `Usage: mcpkit registry-json [URL] [flags] [-- COMMAND [ARGS...]]

Writes the MCP Registry's server.json (schema 2025-12-11) for a server. Name, title,
description, version, icons and website come from the server itself (its serverInfo);
the npm package, repository and homepage come from package.json.

  --package FILE            the package.json to read (default ./package.json); its
                            "mcpName" is the registry name, "name" and "version" the npm
                            package (stdio transport)
  --name NAME               the reverse-DNS registry name (default "mcpName", else the
                            server's own name when it is reverse-DNS)
  --remote URL              a Streamable HTTP endpoint where the server is hosted
                            (repeatable)
  --out FILE                write the file there (default: print it)
  -h, --help                show this help

Server (one of):
  -- COMMAND [ARGS...]   spawn COMMAND and speak stdio to it
  URL                    connect to a Streamable HTTP endpoint (http:// or https://)
  (neither)              spawn the built-in everything server

Fails (exit 2) when the result would not be a valid server.json: a name that is not
reverse-DNS, a description missing or over 100 characters, the server's version not the
package's. Icons that are not https URLs are left out (the Registry takes only those).`;

/** Parses the arguments after `registry-json`. @throws CliError for bad usage. */
export function parseRegistryJsonCommand(argv: readonly string[]): RegistryJsonCommand {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const [command, ...args] = split === -1 ? [] : argv.slice(split + 1);
  let parsed;
  try {
    parsed = parseArgs({
      args: [...own],
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        package: { type: 'string' },
        name: { type: 'string' },
        remote: { type: 'string', multiple: true },
        out: { type: 'string' },
      },
    });
  } catch (error) {
    throw new CliError(
      `registry-json: ${(error as Error).message.split(/\.\s/)[0]}; run \`mcpkit registry-json --help\``,
    );
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { name: 'registry-json', help: true };
  if (positionals.length > 1 || (positionals.length === 1 && command !== undefined))
    throw new CliError(
      '`registry-json` takes one URL or a command after `--`; run `mcpkit registry-json --help`',
    );
  for (const url of [...positionals, ...(values.remote ?? [])]) {
    if (!/^https?:\/\/\S+$/i.test(url)) throw new CliError(`\`${url}\` is not an http(s) URL`);
    refuseCredentials(url);
  }
  const target: Target =
    command !== undefined
      ? { kind: 'stdio', command, args }
      : positionals[0] !== undefined
        ? { kind: 'http', url: positionals[0] }
        : { kind: 'builtin' };
  return {
    name: 'registry-json',
    target,
    packageFile: values.package ?? 'package.json',
    remotes: values.remote ?? [],
    ...(values.name === undefined ? {} : { serverName: values.name }),
    ...(values.out === undefined ? {} : { out: values.out }),
  };
}

/** The package.json fields read. */
export interface PackageMetadata {
  name?: unknown;
  version?: unknown;
  description?: unknown;
  homepage?: unknown;
  mcpName?: unknown;
  repository?: unknown;
}

/** Runs `mcpkit registry-json`: connects, builds, writes or prints. */
export async function runRegistryJson(command: RegistryJsonCommand & { help?: false }): Promise<string> {
  const pkg = readPackage(command.packageFile);
  const flags: ClientFlags = { target: command.target, json: false, era: 'auto' };
  const { withSession } = await import('./session.js');
  const info = await withSession(flags, ({ client }) => Promise.resolve(client.serverInfo));
  if (!info) throw new CliError('the server gave no serverInfo', { kind: 'protocol' });
  const text = `${JSON.stringify(serverJson(info, pkg, command), null, 2)}\n`;
  if (command.out === undefined) return text.trimEnd();
  writeFileSync(command.out, text);
  return '';
}

function readPackage(file: string): PackageMetadata {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as PackageMetadata;
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
  throw new CliError(`${file} is not a JSON object`);
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * The `server.json` of a server whose serverInfo is `info`, published as the npm package
 * `pkg`. @throws CliError when a required field would be invalid.
 */
export function serverJson(
  info: Implementation,
  pkg: PackageMetadata,
  options: { serverName?: string; remotes: readonly string[] },
): Record<string, unknown> {
  const name = options.serverName ?? text(pkg.mcpName) ?? info.name;
  if (name.length < 3 || name.length > 200 || !SERVER_CARD_NAME_PATTERN.test(name))
    throw new CliError(
      `registry name must be reverse-DNS (io.github.user/weather), not \`${name}\`: set "mcpName" in package.json or --name`,
    );
  const description = info.description ?? text(pkg.description);
  if (description === undefined || description.length > 100)
    throw new CliError(
      "server.json needs a description of 1 to 100 characters (the server's, else package.json's)",
    );
  const version = text(pkg.version) ?? info.version;
  if (version !== info.version)
    throw new CliError(
      `the server says version ${info.version} but ${text(pkg.name) ?? 'the package'} is ${version}`,
    );
  const out: Record<string, unknown> = { $schema: SERVER_JSON_SCHEMA, name, description, version };
  if (info.title !== undefined && info.title.length <= 100) out.title = info.title;
  const website = info.websiteUrl ?? text(pkg.homepage);
  if (website !== undefined && /^https?:\/\//.test(website)) out.websiteUrl = website;
  const repository = repositoryOf(pkg.repository);
  if (repository) out.repository = repository;
  const icons = (info.icons ?? []).filter(
    (icon) => /^https:\/\/\S+$/.test(icon.src) && icon.src.length <= 255,
  );
  if (icons.length > 0) out.icons = icons;
  const npm = text(pkg.name);
  if (npm !== undefined)
    out.packages = [
      {
        registryType: 'npm',
        registryBaseUrl: 'https://registry.npmjs.org',
        identifier: npm,
        version,
        transport: { type: 'stdio' },
      },
    ];
  if (options.remotes.length > 0)
    out.remotes = options.remotes.map((url) => ({ type: 'streamable-http', url }));
  return out;
}

const FORGES: Record<string, string> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
};

/** package.json `repository` (a string or `{ url, directory }`) as the Registry's `{ url, source, subfolder }`. */
function repositoryOf(value: unknown): Record<string, string> | undefined {
  const field =
    typeof value === 'string' ? { url: value } : (value as { url?: unknown; directory?: unknown } | null);
  const raw = text(field?.url);
  if (raw === undefined) return undefined;
  const short = /^(?:(github|gitlab|bitbucket):)?([\w.-]+\/[\w.-]+)$/.exec(raw);
  const url = short
    ? `https://${FORGES[short[1] ?? 'github']}/${short[2]}`
    : raw
        .replace(/^git\+/, '')
        .replace(/^git:\/\//, 'https://')
        .replace(/\.git$/, '');
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return undefined;
  }
  const source = host.replace(/^www\./, '').split('.')[0] ?? host;
  const out: Record<string, string> = { url, source };
  const subfolder = text(field?.directory);
  if (subfolder !== undefined && !subfolder.startsWith('/') && !subfolder.split('/').includes('..'))
    out.subfolder = subfolder;
  return out;
}
