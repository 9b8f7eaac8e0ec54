/**
 * One server of a host: its client, its connection status (connecting, ready, failed with
 * a reason, reconnecting, closed), the connect timeout, reconnection with exponential
 * backoff and jitter after the connection drops, and its lists (tools, prompts,
 * resources, templates) kept fresh by following list_changed.
 * Source: 2026-07-28 basic/patterns/subscriptions (listen), 2025-11-25 server/tools
 * "List Changed Notification" (session notifications).
 */
import { createClient, streamableHttp, type Client, type Subscription } from '../client/index.js';
import { LocalError, type Params, type Transport, type TransportSink } from '../core/index.js';
import { uiClientExtension } from '../core/apps.js';
import { listChangedFilter, setTimer, timerDelay } from '../core/runtime.js';
import { spawnStdio } from '../integrations/stdio/index.js';
import type { ResolvedServer } from './config.js';
import type { LinkSetup, ServerState, ServerStatus } from './link-types.js';
import { HealthProbe } from './health.js';
import { exactSink } from './exact-numbers.js';
import { Turns } from './turns.js';
import type { NameFilter } from './names.js';
import { fetchLists, kindsOf, LIST_METHODS, emptyLists, type ListKind, type ServerLists } from './lists.js';

export type { LinkSetup, ReconnectPolicy, ServerState, ServerStatus } from './link-types.js';
const ALL_KINDS = Object.keys(LIST_METHODS) as ListKind[];
const ignore = (): void => undefined;

/** Log messages per second one backend may send through the host (all callers together). */
const HOST_LOGS_PER_SECOND = 1000;

/** A server of the host. Created by the host; `start()` never rejects. */
export class ServerLink {
  readonly name: string;
  readonly #setup: LinkSetup;
  #client: Client | undefined;
  #transport: (Transport & { pid?: number | undefined }) | undefined;
  #subscription: Subscription | undefined;
  readonly #stale = new Set<ListKind>();
  #relisting = false;
  #state: ServerState = 'connecting';
  #reason: string | undefined;
  #attempts = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  #everReady = false;
  #health: HealthProbe | undefined;
  issues: string[] = [];
  lists: ServerLists = emptyLists();
  /** The line of calls while {@link ServerLink.oneCallAtATime}. */
  readonly turns = new Turns();

  constructor(setup: LinkSetup) {
    this.#setup = setup;
    this.name = setup.server.name;
  }

  /** The server's include/exclude lists. */
  get filter(): NameFilter {
    return { include: this.#setup.server.include, exclude: this.#setup.server.exclude };
  }

  /**
   * True when the server's calls must run one at a time: a legacy server over stdio, whose
   * requests and log messages name no call (see turns.ts).
   */
  get oneCallAtATime(): boolean {
    return this.#setup.server.url === undefined && this.client?.era === 'legacy';
  }

  /** The client, while the server is ready. */
  get client(): Client | undefined {
    return this.#state === 'ready' ? this.#client : undefined;
  }

  get status(): ServerStatus {
    const pid = this.#transport?.pid;
    return {
      name: this.name,
      state: this.#state,
      attempts: this.#attempts,
      issues: [...this.issues],
      ...(this.#reason === undefined ? {} : { reason: this.#reason }),
      ...(this.#client?.era && this.#state === 'ready' ? { era: this.#client.era } : {}),
      ...(pid !== undefined && this.#state === 'ready' ? { pid } : {}),
    };
  }

  /**
   * Connects; resolves after the first attempt: ready, or `reconnecting` while later attempts
   * follow (`reconnect.firstConnectAttempts`), or `failed`.
   */
  async start(): Promise<void> {
    await this.#attempt('connecting');
  }

  /** Drops the current connection, if any, and connects again now. */
  async reconnect(): Promise<void> {
    clearTimeout(this.#timer);
    this.#attempts = 0;
    await this.#teardown();
    await this.#attempt('connecting');
  }

  /** Re-reads `kinds` from the server and tells the host. */
  async refresh(kinds: readonly ListKind[]): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      this.lists = { ...this.lists, ...(await fetchLists(client, kinds)) };
      this.#setup.onLists(kinds);
    } catch (error) {
      this.issues = [
        ...this.issues.filter((i) => !i.startsWith('listing')),
        `listing failed: ${describe(error)}`,
      ];
    }
  }

  /** Closes the connection for good (a stdio child is shut down and reaped). */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#teardown();
    this.#set('closed', undefined);
  }

  async #attempt(state: 'connecting' | 'reconnecting'): Promise<void> {
    if (this.#closed) return;
    this.#attempts++;
    this.#set(state, this.#reason);
    try {
      await this.#connect();
      this.#attempts = 0;
      this.#everReady = true;
      this.#set('ready', undefined);
      this.#setup.onLists(ALL_KINDS);
      this.#follow();
      this.#probe();
    } catch (error) {
      await this.#teardown();
      if (this.#closed) return;
      this.#reason = describe(error);
      this.#retryLater();
    }
  }

  async #connect(): Promise<void> {
    const { server, timeoutMs } = this.#setup;
    const client = createClient(this.#clientOptions());
    const transport = this.#watch(makeTransport(server));
    this.#client = client;
    this.#transport = transport;
    await withTimeout(
      (async () => {
        await client.connect(transport);
        // A pinned modern era learns the server's capabilities from server/discover.
        if (client.era === 'modern' && client.serverCapabilities === undefined) await client.discover();
        this.lists = {
          ...emptyLists(),
          ...(await fetchLists(client, ALL_KINDS)),
        };
      })(),
      timeoutMs,
      () =>
        `server '${server.name}' did not become ready within ${timeoutMs} ms (${timeoutOption(server)})` +
        skippedLines(transport),
    );
  }

  #clientOptions(): Parameters<typeof createClient>[0] {
    const { server, handlers, requestTimeoutMs, eraCache, logLevel } = this.#setup;
    return {
      name: 'mcpkit-host',
      version: '0.1.0',
      // Backends serve their apps' views and tools to the host, which passes them on.
      extensions: [uiClientExtension()],
      handlers,
      eraCache,
      cacheKey: server.url ?? [server.command, ...(server.args ?? [])].join(' '),
      onNotification: (n, context) => this.#setup.onNotification(n, context.relatedRequestId),
      onWarning: (message) => this.#setup.onWarning(message),
      // One backend serves every caller of the host: its logs are capped for all of them together.
      limits: { maxLogMessagesPerSecond: HOST_LOGS_PER_SECOND },
      ...(requestTimeoutMs === undefined ? {} : { timeoutMs: requestTimeoutMs }),
      timeoutOption: 'requestTimeoutMs',
      ...(logLevel === undefined ? {} : { logLevel }),
      ...(server.era === undefined ? {} : { era: server.era }),
    };
  }

  /** Follows list_changed: `listen` on modern, the session's notifications on legacy. */
  #follow(): void {
    const client = this.#client;
    const caps = client?.serverCapabilities ?? {};
    if (!client) return;
    const filter = listChangedFilter(caps);
    if (Object.keys(filter).length === 0) return;
    const subscription = client.listen(filter);
    this.#subscription = subscription;
    // A modern change between the first listing and the listen's acknowledgment reached no stream.
    if (client.era === 'modern') subscription.acknowledged.then(() => this.#changed(ALL_KINDS), ignore);
    void (async () => {
      let ended: unknown;
      try {
        for await (const n of subscription) this.#changed(kindsOf(n.method));
      } catch (error) {
        ended = error;
      }
      // Not closed by us: the stream (modern) or the session (legacy) is gone with the server.
      if (this.#subscription === subscription) this.#lost(describe(ended ?? 'the listen stream ended'));
    })();
  }

  /**
   * A list changed: `kinds` are stale. A burst (a server sending 200 list_changed back to
   * back) costs one re-list while the first runs and at most one follow-up for whatever
   * changed meanwhile, not one re-list (and one front notification) per notification.
   */
  #changed(kinds: readonly ListKind[]): void {
    for (const kind of kinds) this.#stale.add(kind);
    if (!this.#relisting) void this.#relist();
  }

  /** Re-lists until nothing is stale; `refresh` records its failures, never throws. */
  async #relist(): Promise<void> {
    this.#relisting = true;
    while (this.#stale.size > 0) {
      const kinds = [...this.#stale];
      this.#stale.clear();
      await this.refresh(kinds);
    }
    this.#relisting = false;
  }

  /** Starts the periodic health probe (see health.ts), when configured for this server. */
  #probe(): void {
    const client = this.#client;
    if (!client) return;
    const http = this.#setup.server.url !== undefined;
    this.#health = new HealthProbe({ client, policy: this.#setup.health, http, lost: (r) => this.#lost(r) });
  }

  /** The connection is gone though the transport did not say so (HTTP): drop it and reconnect. */
  #lost(reason: string): void {
    if (this.#state !== 'ready') return;
    this.#dropped(new LocalError('CONNECTION_CLOSED', reason));
    void this.#teardown();
  }

  /** Wraps the transport so an unexpected end starts reconnection. */
  #watch<T extends Transport>(transport: T): T {
    const start = transport.start.bind(transport);
    transport.start = (sink: TransportSink) =>
      start({
        // Numbers beyond 2^53 − 1 are refused here, once, for every message of the server.
        ...exactSink(sink, {
          server: this.name,
          reply: (m) => transport.send(m),
          warn: this.#setup.onWarning,
        }),
        closed: (error) => {
          sink.closed(error);
          if (this.#transport === transport && this.#state === 'ready') this.#dropped(error);
        },
      });
    return transport;
  }

  #dropped(error: Error | undefined): void {
    if (this.#state !== 'ready') return;
    this.#reason = error ? describe(error) : 'the connection closed';
    this.#subscription?.close();
    this.lists = emptyLists();
    this.#setup.onLists(ALL_KINDS);
    this.#retryLater();
  }

  #retryLater(): void {
    const { baseMs = 250, maxMs = 30_000, maxAttempts = 8, firstConnectAttempts = 4 } = this.#setup.reconnect;
    const cap = this.#everReady ? maxAttempts : firstConnectAttempts;
    if (this.#attempts >= cap) return this.#set('failed', this.#reason);
    this.#set('reconnecting', this.#reason);
    const delay = Math.min(maxMs, baseMs * 2 ** this.#attempts) * (0.5 + Math.random() / 2);
    this.#timer = setTimeout(() => void this.#attempt('reconnecting'), timerDelay(delay));
  }

  async #teardown(): Promise<void> {
    const client = this.#client;
    const transport = this.#transport;
    this.#subscription?.close();
    this.#subscription = undefined;
    this.#health?.stop();
    this.#health = undefined;
    this.#transport = undefined;
    this.#client = undefined;
    await client?.close().catch(() => undefined);
    await transport?.close().catch(() => undefined);
  }

  #set(state: ServerState, reason: string | undefined): void {
    this.#state = state;
    this.#reason = reason;
    this.#setup.onStatus(this.status);
  }
}

function makeTransport(server: ResolvedServer): Transport & { pid?: number | undefined } {
  if (server.url !== undefined) {
    return streamableHttp(server.url, server.headers ? { headers: server.headers } : {});
  }
  return spawnStdio({
    command: server.command ?? '',
    args: server.args ?? [],
    ...(server.env ? { env: server.env } : {}),
    ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
  });
}

/** What a server wrote on stdout that is not JSON-RPC (a banner, an error page), for an error message. */
function skippedLines(transport: Transport): string {
  const lines = transport.nonProtocolLines?.() ?? [];
  if (lines.length === 0) return '';
  return `; on stdout it wrote, not JSON-RPC: ${lines
    .slice(-3)
    .map((line) => JSON.stringify(line))
    .join(', ')}`;
}

async function withTimeout<T>(work: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimer(() => reject(new LocalError('TIMEOUT', message())), ms)),
  );
  work.catch(() => undefined);
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One line naming why something failed. */
function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export type { Params };

/** The option that set a server's connect timeout, for the error that names it. */
function timeoutOption(server: { name: string; timeoutMs?: number | undefined }): string {
  return server.timeoutMs === undefined ? 'connectTimeoutMs' : `mcpServers.${server.name}.timeoutMs`;
}
