/**
 * What `mcpkit card --check` measures on each remote a card names: whether MCP is served
 * there over the card's transport, the live identity and revisions (server/discover, and
 * one legacy `initialize` per legacy revision in question), the capabilities and the lists
 * behind them, and whether the `Authorization` header the card declares is really needed.
 * Source: experimental-ext-server-card `docs/discovery.md` "Consistency with Runtime Behavior".
 */
import {
  cardDrift,
  cardEndpoint,
  createClient,
  sseTransport,
  streamableHttp,
  type CardDrift,
  type Client,
} from '../client/index.js';
import {
  LEGACY_REVISIONS,
  isLegacyRevision,
  type Implementation,
  type ServerCapabilities,
} from '../core/index.js';
import { type CardRemote, type ServerCard } from '../core/server-card.js';

/** How the check reaches the server. */
export interface ProbeOptions {
  headers: Record<string, string>;
  values: Record<string, string>;
  timeoutMs: number;
  version: string;
}

/** What one remote serves. */
export interface RemoteReport {
  type: CardRemote['type'];
  url: string;
  era?: string;
  serverInfo?: Implementation;
  supportedVersions?: string[];
  capabilities?: ServerCapabilities;
  lists?: Partial<Record<ListName, string[]>>;
  /** Why the remote was not checked (a URL variable without a value). */
  skipped?: string;
}

type ListName = 'tools' | 'resources' | 'prompts';
const LISTS: readonly ListName[] = ['tools', 'resources', 'prompts'];

/** Checks every remote of `card`; resolves with what each serves and every drift found. */
export async function checkCard(
  card: ServerCard,
  options: ProbeOptions,
): Promise<{ remotes: RemoteReport[]; drift: CardDrift[] }> {
  const remotes: RemoteReport[] = [];
  const drift: CardDrift[] = [];
  for (const remote of card.remotes ?? []) {
    let url: string;
    try {
      url = cardEndpoint({ ...card, remotes: [remote] }, { type: remote.type, values: options.values }).url;
    } catch (error) {
      remotes.push({ type: remote.type, url: remote.url, skipped: (error as Error).message });
      continue;
    }
    remotes.push(await checkRemote(card, { remote, url, drift, options }));
  }
  drift.push(...acrossRemotes(remotes.filter((r) => r.lists)));
  if ((card.remotes ?? []).length === 0)
    drift.push(note('remotes', 'the card names no remote, so a client cannot connect from it'));
  return { remotes, drift };
}

interface RemoteCheck {
  remote: CardRemote;
  url: string;
  drift: CardDrift[];
  options: ProbeOptions;
}

async function checkRemote(card: ServerCard, check: RemoteCheck): Promise<RemoteReport> {
  const { remote, url, drift, options } = check;
  const report: RemoteReport = { type: remote.type, url };
  const client = newClient(options);
  try {
    await client.connect(transportOf(remote.type, url, options.headers));
  } catch (error) {
    const message = `nothing serves MCP over ${remote.type} at ${url}: ${(error as Error).message}`;
    const unauthorized = /\b401\b/.test(String((error as Error).message));
    if (unauthorized && declaresAuth(remote) && !('authorization' in lower(options.headers)))
      report.skipped = 'the card says it needs Authorization; give --token';
    else drift.push(unauthorized && !declaresAuth(remote) ? authDrift(url) : note('transport', message));
    return report;
  }
  try {
    report.era = client.era ?? '';
    if (client.serverInfo) report.serverInfo = client.serverInfo;
    const capabilities = client.serverCapabilities ?? {};
    report.capabilities = capabilities;
    const served = await liveVersions(client, { remote, url, drift, options });
    report.supportedVersions = served;
    drift.push(
      ...cardDrift(
        { ...card, remotes: [remote] },
        { serverInfo: client.serverInfo, supportedVersions: served },
      ),
    );
    report.lists = await listsOf(client, capabilities, drift);
    if (declaresAuth(remote) && !('authorization' in lower(options.headers)))
      drift.push(note('auth', `the card requires Authorization at ${url}, but the server served without it`));
  } finally {
    await client.close();
  }
  return report;
}

function newClient(options: ProbeOptions, legacyVersion?: string): Client {
  return createClient({
    name: 'mcpkit-card-check',
    version: options.version,
    timeoutMs: options.timeoutMs,
    probeTimeoutMs: options.timeoutMs,
    ...(legacyVersion === undefined ? {} : { era: 'legacy', legacyProtocolVersion: legacyVersion }),
  });
}

function transportOf(type: CardRemote['type'], url: string, headers: Record<string, string>) {
  return type === 'sse'
    ? sseTransport(url, { headers })
    : streamableHttp(url, { headers, legacySseFallback: false });
}

/**
 * The revisions served: server/discover's list (modern), plus each legacy revision the card
 * claims or mcpkit knows that a legacy `initialize` settles on; legacy-only servers are probed the same way.
 */
async function liveVersions(client: Client, check: RemoteCheck): Promise<string[]> {
  const served = new Set<string>();
  if (client.era === 'modern') for (const v of (await client.discover()).supportedVersions) served.add(v);
  const claimed = check.remote.supportedProtocolVersions ?? [];
  const asked = new Set([...claimed.filter(isLegacyRevision), ...LEGACY_REVISIONS]);
  for (const version of asked) {
    if (served.has(version)) continue;
    const probe = newClient(check.options, version);
    try {
      await probe.connect(transportOf(check.remote.type, check.url, check.options.headers));
      if (probe.protocolVersion === version) served.add(version);
    } catch {
      // not served on this endpoint
    } finally {
      await probe.close();
    }
  }
  return [...served];
}

/** The names in each list a capability declares; a declared list that fails is a drift. */
async function listsOf(
  client: Client,
  capabilities: ServerCapabilities,
  drift: CardDrift[],
): Promise<Partial<Record<ListName, string[]>>> {
  const lists: Partial<Record<ListName, string[]>> = {};
  for (const name of LISTS) {
    if (capabilities[name] === undefined) continue;
    try {
      const items = await listAll(client, name);
      lists[name] = items.map((item) => ('uri' in item ? item.uri : item.name)).sort();
    } catch (error) {
      drift.push(
        note('capabilities', `declares ${name} but ${name}/list fails: ${(error as Error).message}`),
      );
    }
  }
  return lists;
}

function listAll(client: Client, name: ListName): Promise<Array<{ name: string; uri?: string }>> {
  if (name === 'tools') return client.listTools();
  if (name === 'prompts') return client.listPrompts();
  return client.listResources();
}

/** Remotes of one card are one server: their capabilities and lists must agree. */
function acrossRemotes(reports: RemoteReport[]): CardDrift[] {
  const [first, ...rest] = reports;
  const drift: CardDrift[] = [];
  for (const other of first ? rest : []) {
    const a = Object.keys(first!.capabilities ?? {}).sort();
    const b = Object.keys(other.capabilities ?? {}).sort();
    if (a.join() !== b.join())
      drift.push(
        note('capabilities', `${other.url} declares ${b.join(', ')}; ${first!.url} declares ${a.join(', ')}`),
      );
    for (const name of LISTS) {
      const x = first!.lists?.[name]?.join('\n') ?? '';
      const y = other.lists?.[name]?.join('\n') ?? '';
      if (x !== y) drift.push(note('lists', `${name} differ between ${first!.url} and ${other.url}`));
    }
  }
  return drift;
}

function declaresAuth(remote: CardRemote): boolean {
  return (remote.headers ?? []).some(
    (h) => h.name.toLowerCase() === 'authorization' && h.isRequired === true,
  );
}

function authDrift(url: string): CardDrift {
  return note('auth', `${url} answers 401, but the card declares no required Authorization header`);
}

function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function note(field: string, message: string): CardDrift {
  return { field, card: undefined, live: undefined, message };
}
