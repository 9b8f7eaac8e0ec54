/**
 * The inspector's catalogue of servers (`mcpkit inspect --ui --config FILE`): the servers of
 * an `mcpServers` file (read by the host's own parser, src/host/config.ts) or of an MCP
 * Registry `server.json` (its `remotes` and `packages`), each connected on demand by a
 * client of its own to learn its era and tools, and one full-text search over the tools of
 * every connected server (mcpkit/tool-search). Opening a server in the app's views is the
 * bridge's connection, not this one.
 */
import { readFile } from 'node:fs/promises';
import { createClient, type Client, type EraPreference } from '../../client/index.js';
import { LocalError, type Tool } from '../../core/index.js';
import type { RequestContext } from '../../server/index.js';
import { createToolSearch, type SearchableTool } from '../../tool-search/index.js';
import { parseBoundedJson } from '../json-file.js';
import { loadPeer } from '../peer.js';
import { openTransport, type InspectorTarget, type TargetAuth } from './target.js';

/** Most servers a catalogue holds; the rest of a file is refused. */
export const MAX_CATALOG_SERVERS = 100;
/** Most tools of one server indexed for the search (the rest are left out, and said so). */
const MAX_TOOLS_PER_SERVER = 1000;
/** Most hits one search returns. */
const MAX_SEARCH_HITS = 50;
/** Largest catalogue file read, in bytes. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** Longest wait for each request of a catalogue connection (era probe, handshake, each tools/list page), in ms. */
const REQUEST_TIMEOUT_MS = 15_000;

/** One server of the catalogue. */
export interface CatalogEntry {
  name: string;
  /** `stdio` (a command), `http` (Streamable HTTP), or `unsupported` (a package kind not run here). */
  transport: 'stdio' | 'http' | 'unsupported';
  /** The command line or URL, for people (no header values). */
  where: string;
  /** The era preference the file gives (mcpServers `era`), default auto. */
  era: EraPreference;
  /** Why it cannot be connected (unsupported entries only). */
  note?: string;
  target?: InspectorTarget;
}

interface Live {
  client: Client;
  tools: Tool[];
  truncated: boolean;
}

/** What the app shows of an entry. */
export interface CatalogRow {
  name: string;
  transport: CatalogEntry['transport'];
  where: string;
  note?: string;
  status: 'disconnected' | 'connecting' | 'connected' | 'failed';
  era?: string;
  protocolVersion?: string;
  tools?: number;
  /** More tools than {@link MAX_TOOLS_PER_SERVER} were listed: the search sees the first ones. */
  truncated?: boolean;
  error?: string;
}

/** A search hit: the server and the tool. */
export interface CatalogHit {
  server: string;
  tool: string;
  title?: string;
  description?: string;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * The entries of an `mcpServers` (or VS Code `servers`) file, through the host's parser.
 * @throws LocalError `MISSING_DEPENDENCY` without zod (the host's optional peer).
 */
async function hostEntries(path: string): Promise<CatalogEntry[]> {
  const host = await loadPeer(
    { name: 'zod', feature: 'inspect --config', install: 'npm install zod' },
    () => import('../../host/index.js'),
  );
  const servers = host.resolveServers(await host.loadHostConfig(path));
  return servers.map((s): CatalogEntry => {
    const era = s.era ?? 'auto';
    if (s.url !== undefined)
      return {
        name: s.name,
        transport: 'http',
        where: s.url,
        era,
        target: { kind: 'http', url: s.url, headers: s.headers ?? {} },
      };
    const args = s.args ?? [];
    const target: InspectorTarget = {
      kind: 'stdio',
      command: s.command ?? '',
      args,
      ...(s.env ? { env: s.env } : {}),
      ...(s.cwd ? { cwd: s.cwd } : {}),
    };
    return { name: s.name, transport: 'stdio', where: [s.command, ...args].join(' '), era, target };
  });
}

/** How each Registry package type runs over stdio: the command and its arguments. */
const RUNNERS: Record<string, (id: string, version: string | undefined) => string[]> = {
  npm: (id, v) => ['npx', '-y', v ? `${id}@${v}` : id],
  pypi: (id, v) => ['uvx', v ? `${id}==${v}` : id],
  oci: (id, v) => ['docker', 'run', '-i', '--rm', v && !id.includes(':') ? `${id}:${v}` : id],
};

/** Positional and named arguments of a Registry package with a fixed `value` (others need input). */
function packageArguments(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  const out: string[] = [];
  for (const arg of list.slice(0, 100) as Record<string, unknown>[]) {
    const value = text(arg?.value) ?? text(arg?.default);
    if (arg?.type === 'named' && text(arg.name)) out.push(String(arg.name), ...(value ? [value] : []));
    else if (value) out.push(value);
  }
  return out;
}

/**
 * The entries of a Registry `server.json` (schema 2025-12-11): each `remotes` entry of type
 * `streamable-http`, each `packages` entry with a stdio transport (npm through `npx`, PyPI
 * through `uvx`, OCI through `docker run`), and a `streamable-http` package transport's URL.
 * Others (SSE, nuget, mcpb) are listed as unsupported.
 */
function registryEntries(json: Record<string, unknown>): CatalogEntry[] {
  const base = text(json.name) ?? 'server';
  const list = (value: unknown) =>
    Array.isArray(value) ? (value.slice(0, MAX_CATALOG_SERVERS + 1) as Record<string, unknown>[]) : [];
  return [
    ...list(json.remotes).map((remote, i) => remoteEntry(`${base} remote ${i + 1}`, remote)),
    ...list(json.packages).map((pkg, i) =>
      packageEntry(`${base} ${text(pkg?.registryType) ?? '?'} ${i + 1}`, pkg),
    ),
  ];
}

/** An entry for a Streamable HTTP URL. */
function httpEntry(name: string, url: string): CatalogEntry {
  return { name, transport: 'http', where: url, era: 'auto', target: { kind: 'http', url, headers: {} } };
}

/** A `remotes` entry of a server.json. */
function remoteEntry(name: string, remote: Record<string, unknown> | undefined): CatalogEntry {
  const url = text(remote?.url);
  if (remote?.type === 'streamable-http' && url && URL.canParse(url)) return httpEntry(name, url);
  return {
    name,
    transport: 'unsupported',
    where: url ?? '',
    era: 'auto',
    note: `remote type ${String(remote?.type)}`,
  };
}

/** A `packages` entry of a server.json. */
function packageEntry(name: string, pkg: Record<string, unknown> | undefined): CatalogEntry {
  const type = text(pkg?.registryType) ?? '?';
  const id = text(pkg?.identifier) ?? '';
  const transport = (pkg?.transport ?? {}) as Record<string, unknown>;
  const url = text(transport.url);
  const runner = RUNNERS[type];
  if (transport.type === 'streamable-http' && url && URL.canParse(url)) return httpEntry(name, url);
  if (transport.type !== 'stdio' || !runner || !id)
    return {
      name,
      transport: 'unsupported',
      where: id,
      era: 'auto',
      note: `${type} package over ${String(transport.type)}`,
    };
  const [command = '', ...args] = [
    ...runner(id, text(pkg?.version)),
    ...packageArguments(pkg?.packageArguments),
  ];
  return {
    name,
    transport: 'stdio',
    where: [command, ...args].join(' '),
    era: 'auto',
    target: { kind: 'stdio', command, args },
  };
}

/**
 * Reads a catalogue file: `{ "mcpServers": … }` / `{ "servers": … }` as the host reads it, or
 * a Registry `server.json` (one with `packages` or `remotes`).
 * @throws LocalError `INVALID_ARGUMENT` for an unreadable, oversized or unknown file, or
 *   more than {@link MAX_CATALOG_SERVERS} servers.
 */
export async function loadCatalog(path: string): Promise<CatalogEntry[]> {
  const raw = await readFile(path, 'utf8').catch((error: Error) => {
    throw new LocalError('INVALID_ARGUMENT', `cannot read ${path}: ${error.message}`, { cause: error });
  });
  if (raw.length > MAX_FILE_BYTES)
    throw new LocalError('INVALID_ARGUMENT', `${path} is over ${MAX_FILE_BYTES} bytes`);
  // Bad JSON goes on to the host's parser below, whose error names the problem.
  const json = (() => {
    try {
      return parseBoundedJson(raw);
    } catch {
      return undefined;
    }
  })();
  const object =
    json !== null && typeof json === 'object' && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : {};
  const registry =
    !('mcpServers' in object) && !('servers' in object) && ('packages' in object || 'remotes' in object);
  // Anything else (bad JSON included) goes to the host's parser, whose errors name the problem.
  const entries = registry ? registryEntries(object) : await hostEntries(path);
  if (entries.length > MAX_CATALOG_SERVERS)
    throw new LocalError(
      'INVALID_ARGUMENT',
      `${path} has ${entries.length} servers; the inspector takes at most ${MAX_CATALOG_SERVERS}`,
    );
  if (entries.length === 0) throw new LocalError('INVALID_ARGUMENT', `${path} names no server`);
  return entries;
}

/** The tool search sees no caller: every tool is visible. */
const NOBODY = { auth: undefined } as RequestContext;

/** The catalogue: entries, their connections, and the search over their tools. */
export class Catalog {
  readonly #entries: CatalogEntry[];
  readonly #auth: TargetAuth;
  readonly #live = new Map<string, Live>();
  readonly #status = new Map<string, { status: CatalogRow['status']; error?: string }>();
  #searchable: SearchableTool[] = [];
  readonly #owners = new Map<string, CatalogHit>();
  readonly #search = createToolSearch({ tools: () => this.#searchable }, { maxLimit: MAX_SEARCH_HITS });

  constructor(entries: CatalogEntry[], auth: TargetAuth = {}) {
    this.#entries = entries.slice(0, MAX_CATALOG_SERVERS);
    this.#auth = auth;
  }

  /** The entry named `name`. @throws Error when there is none. */
  entry(name: string): CatalogEntry {
    const entry = this.#entries.find((e) => e.name === name);
    if (!entry) throw new Error(`no server named \`${name}\` in the catalogue`);
    return entry;
  }

  /** Every entry with its state. */
  rows(): CatalogRow[] {
    return this.#entries.map((e) => {
      const live = this.#live.get(e.name);
      const status = this.#status.get(e.name) ?? { status: 'disconnected' as const };
      const row: CatalogRow = { name: e.name, transport: e.transport, where: e.where, ...status };
      if (e.note) row.note = e.note;
      if (live) {
        row.era = live.client.era ?? '';
        row.protocolVersion = live.client.protocolVersion ?? '';
        row.tools = live.tools.length;
        if (live.truncated) row.truncated = true;
      }
      return row;
    });
  }

  /** Connects the catalogue's own client to `name` and lists its tools; resolves with the rows. */
  async connect(name: string): Promise<CatalogRow[]> {
    const entry = this.entry(name);
    if (!entry.target)
      throw new Error(`\`${name}\` cannot be connected here: ${entry.note ?? 'unsupported'}`);
    await this.disconnect(name);
    this.#status.set(name, { status: 'connecting' });
    const client = createClient({
      name: 'mcpkit-inspector-catalog',
      version: '0.1.0',
      era: entry.era,
      timeoutMs: REQUEST_TIMEOUT_MS,
    });
    try {
      await client.connect(openTransport(entry.target, this.#auth));
      const all = client.serverCapabilities?.tools === undefined ? [] : await client.listTools();
      const tools = all.slice(0, MAX_TOOLS_PER_SERVER);
      this.#live.set(name, { client, tools, truncated: all.length > tools.length });
      this.#status.set(name, { status: 'connected' });
    } catch (error) {
      await client.close().catch(() => undefined);
      this.#status.set(name, {
        status: 'failed',
        error: error instanceof Error ? error.message : String(error),
      });
    }
    this.#reindex();
    return this.rows();
  }

  /** Closes the catalogue's client of `name`, if connected; resolves with the rows. */
  async disconnect(name: string): Promise<CatalogRow[]> {
    this.entry(name);
    const live = this.#live.get(name);
    this.#live.delete(name);
    this.#status.delete(name);
    this.#reindex();
    await live?.client.close().catch(() => undefined);
    return this.rows();
  }

  /** Closes every connection. */
  async close(): Promise<void> {
    const all = [...this.#live.values()];
    this.#live.clear();
    this.#search.close();
    await Promise.all(all.map((l) => l.client.close().catch(() => undefined)));
  }

  /**
   * The best tools for `query` over every connected server, at most `limit` (1 to
   * {@link MAX_SEARCH_HITS}, default 20), through mcpkit/tool-search.
   * @throws LocalError `MISSING_DEPENDENCY` when the optional package minisearch is absent.
   */
  async search(query: string, limit = 20): Promise<CatalogHit[]> {
    const hits = await this.#search.search(query, NOBODY, Math.min(limit, MAX_SEARCH_HITS));
    return hits.flatMap((hit) => {
      const owner = this.#owners.get(hit.name);
      return owner ? [owner] : [];
    });
  }

  #reindex(): void {
    this.#owners.clear();
    const searchable: SearchableTool[] = [];
    for (const [server, live] of this.#live)
      for (const tool of live.tools) {
        // One index over all servers: names are qualified so two servers' `echo` stay apart.
        const key = `${server}/${tool.name}`;
        const hit: CatalogHit = { server, tool: tool.name };
        if (tool.title) hit.title = tool.title;
        if (tool.description) hit.description = tool.description.slice(0, 300);
        this.#owners.set(key, hit);
        searchable.push({
          tool: { ...tool, name: key },
          call: () => Promise.reject(new Error('not callable')),
        });
      }
    this.#searchable = searchable;
  }
}
