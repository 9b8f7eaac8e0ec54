/**
 * Reading and changing a host's configuration file: one server entry added (or, with
 * `force`, replaced) and every other entry and setting kept, written atomically (a temporary
 * file in the same folder, then a rename) with the file's mode kept. JSON files are parsed
 * and written back with two-space indentation; TOML files (Codex) are edited as text, so
 * comments and layout survive, and checked with smol-toml (an optional peer, loaded here).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { LocalError } from '../../core/index.js';
import { CliError } from '../errors.js';
import { loadPeer } from '../peer.js';
import { parseBoundedJson, readTextFile } from '../json-file.js';
import type { HostProfile } from './hosts.js';

/** Largest configuration file read (~/.claude.json keeps history and grows). */
const MAX_CONFIG_BYTES = 64 * 1024 * 1024;

type Toml = typeof import('smol-toml');

/** smol-toml, loaded on first use. @throws LocalError `MISSING_DEPENDENCY` naming the install. */
function loadToml(): Promise<Toml> {
  return loadPeer(
    { name: 'smol-toml', feature: 'writing Codex\u2019s config.toml' },
    () => import('smol-toml'),
  );
}

/** The file's text, or undefined when it does not exist. */
async function readIfThere(path: string): Promise<string | undefined> {
  try {
    await stat(path);
  } catch {
    return undefined;
  }
  return readTextFile(path, MAX_CONFIG_BYTES);
}

/** The servers `host` lists in `path` (name → entry); empty when the file does not exist. */
export async function serversIn(host: HostProfile, path: string): Promise<Record<string, unknown>> {
  const text = await readIfThere(path);
  if (text === undefined) return {};
  const parsed = await parseConfig(host, path, text);
  const servers = parsed[host.key];
  return isRecord(servers) ? servers : {};
}

async function parseConfig(host: HostProfile, path: string, text: string): Promise<Record<string, unknown>> {
  if (text.trim() === '') return {};
  try {
    const value = host.format === 'toml' ? (await loadToml()).parse(text) : parseBoundedJson(text);
    if (!isRecord(value)) throw new Error('not an object');
    return value;
  } catch (error) {
    if (error instanceof LocalError) throw error;
    const hint = host.format === 'json' ? ' (comments are not supported; edit it by hand)' : '';
    throw new CliError(
      `${path} cannot be read as ${host.format.toUpperCase()}: ${(error as Error).message}${hint}`,
      {
        kind: 'failure',
      },
    );
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What {@link addServer} did. */
export interface Written {
  replaced: boolean;
}

/**
 * Adds server `name` with `entry` to `host`'s file at `path` (created, with its folders,
 * when missing). @throws CliError when the entry exists and `force` is not set, or the file
 * cannot be parsed.
 */
export async function addServer(
  host: HostProfile,
  path: string,
  server: { name: string; entry: Record<string, unknown>; force: boolean },
): Promise<Written> {
  const text = (await readIfThere(path)) ?? '';
  const config = await parseConfig(host, path, text);
  const existing = isRecord(config[host.key]) ? (config[host.key] as Record<string, unknown>) : {};
  const replaced = Object.hasOwn(existing, server.name);
  if (replaced && !server.force)
    throw new CliError(
      `${path} already has a server '${server.name}' (${JSON.stringify(existing[server.name])}); use --force to replace it, or --name to choose another name`,
    );
  const next =
    host.format === 'json'
      ? `${JSON.stringify({ ...config, [host.key]: { ...existing, [server.name]: server.entry } }, null, 2)}\n`
      : await editToml(text, server);
  await writeAtomically(path, next);
  return { replaced };
}

/**
 * `text` with the `[mcp_servers.NAME]` table (and its sub-tables) removed and the new one
 * appended; checked by parsing the result. When the old entry was written some other way
 * (an inline table), the whole file is written back from its parsed form instead.
 */
async function editToml(
  text: string,
  server: { name: string; entry: Record<string, unknown> },
): Promise<string> {
  const { parse, stringify } = await loadToml();
  const table = stringify({ mcp_servers: { [server.name]: server.entry } });
  const kept = await withoutTable(text, ['mcp_servers', server.name]);
  let next = `${kept.replace(/\s*$/, '')}${kept.trim() === '' ? '' : '\n\n'}${table.trim()}\n`;
  if (!parsesTo(parse, next, server)) {
    const whole = parse(text) as Record<string, Record<string, unknown>>;
    whole.mcp_servers = { ...whole.mcp_servers, [server.name]: server.entry };
    next = `${stringify(whole).trim()}\n`;
  }
  return next;
}

function parsesTo(
  parse: Toml['parse'],
  text: string,
  server: { name: string; entry: Record<string, unknown> },
): boolean {
  let servers: unknown;
  try {
    servers = parse(text).mcp_servers;
  } catch {
    return false;
  }
  return isRecord(servers) && JSON.stringify(servers[server.name]) === JSON.stringify(server.entry);
}

/** `text` without the table at `path` and its sub-tables (headers parsed by smol-toml itself). */
async function withoutTable(text: string, path: readonly string[]): Promise<string> {
  const { parse } = await loadToml();
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  let dropping = false;
  for (const line of lines) {
    const header = /^\s*\[\[?([^\]]+)\]\]?\s*(#.*)?$/.exec(line);
    if (header) dropping = startsWith(keyPath(parse, header[1]!), path);
    if (!dropping) out.push(line);
  }
  return out.join('\n');
}

/** The dotted key of a table header, as TOML reads it (quotes and spaces handled by the parser). */
function keyPath(parse: Toml['parse'], header: string): string[] {
  const keys: string[] = [];
  try {
    let node: unknown = parse(`[${header}]`);
    while (isRecord(node) && Object.keys(node).length === 1) {
      const key = Object.keys(node)[0]!;
      keys.push(key);
      node = node[key];
    }
  } catch {
    return [];
  }
  return keys;
}

const startsWith = (keys: readonly string[], prefix: readonly string[]) =>
  keys.length >= prefix.length && prefix.every((k, i) => keys[i] === k);

/** Writes `text` to `path` through a temporary file and a rename, keeping the old file's mode. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const mode = await stat(path).then(
    (s) => s.mode & 0o777,
    () => 0o600,
  );
  const temporary = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, text, { mode, flag: 'wx' });
    await chmod(temporary, mode);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new CliError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, {
      kind: 'failure',
      cause: error,
    });
  }
}
