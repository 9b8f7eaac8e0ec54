/**
 * A server's four lists (tools, prompts, resources, resource templates), fetched whole
 * (every page) for what the server declares.
 * Source: 2026-07-28 server/tools, server/prompts, server/resources (listing, pagination).
 */
import type { Client } from '../client/index.js';
import {
  ERROR_TABLE,
  WireError,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from '../core/index.js';
import { listChangedFeature, type ListFeature } from '../core/runtime.js';

/** The lists a host keeps per server. */
export interface ServerLists {
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  templates: ResourceTemplate[];
}

/** One of the four lists. */
export type ListKind = keyof ServerLists;

/** The capability each list needs. */
export const LIST_METHODS: Record<ListKind, 'tools' | 'prompts' | 'resources'> = {
  tools: 'tools',
  prompts: 'prompts',
  resources: 'resources',
  templates: 'resources',
};

/** Empty lists (a server that is not ready offers nothing). */
export function emptyLists(): ServerLists {
  return { tools: [], prompts: [], resources: [], templates: [] };
}

/**
 * Fetches `kinds` from `client`; a list whose capability is not declared, or whose method
 * the server answers with -32601 (many servers declare `resources` without
 * `resources/templates/list`), is empty, and the others are kept.
 * @throws what the client throws for any other failure.
 */
export async function fetchLists(client: Client, kinds: readonly ListKind[]): Promise<Partial<ServerLists>> {
  const caps = client.serverCapabilities ?? {};
  const fetchers: { [K in ListKind]: () => Promise<ServerLists[K]> } = {
    tools: () => client.listTools(),
    prompts: () => client.listPrompts(),
    resources: () => client.listResources(),
    templates: () => client.listResourceTemplates(),
  };
  const entries = await Promise.all(
    kinds.map(
      async (kind) =>
        [kind, caps[LIST_METHODS[kind]] ? await orEmpty<unknown>(fetchers[kind]()) : []] as const,
    ),
  );
  return Object.fromEntries(entries) as Partial<ServerLists>;
}

async function orEmpty<T>(listing: Promise<T[]>): Promise<T[]> {
  try {
    return await listing;
  } catch (error) {
    if (error instanceof WireError && error.code === ERROR_TABLE.MethodNotFound.code) return [];
    throw error;
  }
}

/** The host lists each feature's list_changed notification makes stale. */
const STALE: Readonly<Record<ListFeature, ListKind[]>> = {
  tools: ['tools'],
  prompts: ['prompts'],
  resources: ['resources', 'templates'],
};

/** The lists the list_changed notification `method` makes stale (none for another method). */
export function kindsOf(method: string): ListKind[] {
  const feature = listChangedFeature(method);
  return feature === undefined ? [] : STALE[feature];
}
