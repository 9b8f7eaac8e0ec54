/**
 * Contract snapshots: a stable, sorted description of everything a server offers, per era
 * (tools with their schemas and annotations, resources, resource templates, prompts,
 * capabilities and extensions). Two snapshots compare with `diffContracts`.
 */
import type { Client } from '../client/index.js';
import { createClient } from '../client/index.js';
import type { Era, Prompt, Resource, ResourceTemplate, Tool } from '../core/index.js';
import type { McpServer } from '../server/index.js';
import { connect } from '../server/index.js';
import { createLinkedPair } from '../testing/runtime.js';

/** What one era of a server offers, keyed and sorted so equal servers give equal JSON. */
export interface ContractSurface {
  protocolVersion: string;
  /** The server's capabilities (modern: from `server/discover`; legacy: from `initialize`). */
  capabilities: Record<string, unknown>;
  instructions?: string;
  /** Tools by name, each the `tools/list` entry (sorted keys). */
  tools: Record<string, Tool>;
  /** Resources by URI. */
  resources: Record<string, Resource>;
  /** Resource templates by `uriTemplate`. */
  resourceTemplates: Record<string, ResourceTemplate>;
  /** Prompts by name. */
  prompts: Record<string, Prompt>;
}

/** A contract snapshot (`mcpkit contract snapshot`): version 1 of the format. */
export interface Contract {
  mcpkitContract: 1;
  server: { name: string; version?: string };
  /** One surface per era the server was seen on. */
  eras: Partial<Record<Era, ContractSurface>>;
}

/**
 * Describes the server behind a connected `client` in the client's era: every page of every
 * list the server's capabilities announce (a missing capability gives an empty list).
 * @throws whatever the list requests throw (a server that fails a list has no contract).
 */
export async function surfaceOf(
  client: Client,
  options: { signal?: AbortSignal } = {},
): Promise<ContractSurface> {
  const request = options.signal ? { signal: options.signal } : {};
  // A client pinned to modern skips the probe: server/discover tells the capabilities.
  if (client.era === 'modern' && !client.serverCapabilities) await client.discover(request);
  const capabilities = (client.serverCapabilities ?? {}) as Record<string, unknown>;
  const has = (name: string): boolean => Object.hasOwn(capabilities, name);
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    has('tools') ? client.listTools(request) : [],
    has('resources') ? client.listResources(request) : [],
    has('resources') ? client.listResourceTemplates(request) : [],
    has('prompts') ? client.listPrompts(request) : [],
  ]);
  const surface: ContractSurface = {
    protocolVersion: client.protocolVersion ?? '',
    capabilities,
    tools: keyed(tools, (t) => t.name),
    resources: keyed(resources, (r) => r.uri),
    resourceTemplates: keyed(resourceTemplates, (t) => t.uriTemplate),
    prompts: keyed(prompts, (p) => p.name),
  };
  if (client.instructions !== undefined) surface.instructions = client.instructions;
  return sortedDeep(surface);
}

/** Builds a contract from the surfaces seen, with the server's identity. */
export function contractOf(
  server: { name: string; version?: string },
  eras: Partial<Record<Era, ContractSurface>>,
): Contract {
  const identity =
    server.version === undefined ? { name: server.name } : { name: server.name, version: server.version };
  return sortedDeep({ mcpkitContract: 1 as const, server: identity, eras });
}

/**
 * The contract of an mcpkit server definition, seen in process over the linked pair by a
 * modern and a legacy client in turn (or only `options.eras`).
 */
export async function serverContract(
  server: McpServer,
  options: { eras?: readonly Era[] } = {},
): Promise<Contract> {
  const eras: Partial<Record<Era, ContractSurface>> = {};
  let identity: { name: string; version?: string } = { name: '' };
  for (const era of options.eras ?? (['modern', 'legacy'] as const)) {
    const [clientEnd, serverEnd] = createLinkedPair();
    const connection = await connect(server, serverEnd);
    const client = createClient({ name: 'mcpkit-contract', version: '1', era });
    try {
      await client.connect(clientEnd);
      eras[era] = await surfaceOf(client);
      const info = client.serverInfo;
      if (info) identity = { name: info.name, version: info.version };
    } finally {
      await client.close();
      await connection.close();
    }
  }
  return contractOf(identity, eras);
}

/** Items by key, as own properties (a key such as `__proto__` stays data). */
function keyed<T>(items: readonly T[], key: (item: T) => string): Record<string, T> {
  return Object.fromEntries(items.map((item) => [key(item), item]));
}

/** Most nesting {@link sortedDeep} follows; deeper values are kept as they are. */
const MAX_DEPTH = 64;

/** A copy of `value` with every object's keys in code-point order (arrays keep theirs). */
function sortedDeep<T>(value: T, depth = 0): T {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item: unknown) => sortedDeep(item, depth + 1)) as T;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return Object.fromEntries(entries.map(([k, v]) => [k, sortedDeep(v, depth + 1)])) as T;
}
