/**
 * `mcpkit registry-json`: the MCP Registry's `server.json` for a server, its identity read
 * from the server itself (serverInfo) and its package from package.json, so the entry
 * says what the server says. Written against the Registry's released schema 2025-12-11.
 * Source: modelcontextprotocol/registry docs/reference/server-json (generic-server-json.md,
 * official-registry-requirements.md); static schemas/2025-12-11/server.schema.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { type Implementation } from '../core/index.js';
import { SERVER_CARD_NAME_PATTERN } from '../core/server-card.js';
import type { ClientFlags } from './args.js';
import type { RegistryJsonCommand } from './card-args.js';
import { CliError } from './errors.js';
import { parseBoundedJson } from './json-file.js';

/** The `$schema` of the `server.json` written: the Registry's latest released schema. */
const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

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
    const parsed = parseBoundedJson(readFileSync(file, 'utf8'));
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
