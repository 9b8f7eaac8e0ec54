/**
 * The inspector's one MCP client and what the web app may ask of it. Everything MCP happens
 * here, in mcpkit's client; the web app only sends intents and renders what comes back.
 * Server-to-client requests (elicitation, sampling) wait for the person at the browser;
 * roots are what the person configured. Events (history, notifications, progress, input
 * requests) go to every open event stream.
 */
import { randomUUID } from 'node:crypto';
import { createClient, listChangedFilter, type Client, type EraPreference } from '../../client/index.js';
import { uiClientExtension } from '../../core/apps.js';
import { AppViews } from './apps.js';
import { ReceivedResults, withReceived } from './received.js';
import type { InspectorLogin } from './login.js';
import { recordedLine, recordingText } from '../record/format.js';
import { nonProtocolFrame, recordingTransport, type RecordedFrame } from './recorder.js';
import { openTransport, type InspectorTarget } from './target.js';
import { ConnectionWatch, eraReason } from './watch.js';

/** An event for the web app. */
export type InspectorEvent = { type: string; [key: string]: unknown };

/** A root the person configured (client/roots). */
export interface InspectorRoot {
  uri: string;
  name?: string;
}

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  /** The `input` event that asked the person, replayed to pages opened later. */
  event: InspectorEvent;
}

/** How many history and notification events a newly opened page is sent. */
const REPLAYED_EVENTS = 500;
/** Frames kept for the history export. */
const MAX_HISTORY = 10_000;

/** Options of {@link InspectorBridge}. */
export interface InspectorBridgeOptions {
  /** OAuth for Streamable HTTP targets; without it a protected server cannot be reached. */
  login?: InspectorLogin;
  /** A bearer token (`--token`) sent to this one URL instead of logging in. */
  bearer?: { url: string; token: string };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The client side of the inspector: one connection at a time. */
export class InspectorBridge {
  readonly #login: InspectorLogin | undefined;
  readonly #bearer: { url: string; token: string } | undefined;
  /** Whether the last target was a Streamable HTTP URL (the login state then applies). */
  #http = false;
  readonly #listeners = new Set<(event: InspectorEvent) => void>();
  readonly #pending = new Map<string, Pending>();
  readonly #calls = new Map<string, AbortController>();
  readonly #recent: InspectorEvent[] = [];
  readonly #history: RecordedFrame[] = [];
  #server = '';
  #eraReason = '';
  /** The network, console and era of the current connection (Network and Console views). */
  readonly watch = new ConnectionWatch((event) => this.#emit(event));
  readonly #received = new ReceivedResults();
  #roots: InspectorRoot[] = [];
  #client: Client | undefined;
  #listen: { close(): void } | undefined;
  /** The apps (MCP Apps views) open on the current connection. */
  readonly apps = new AppViews(
    (event) => this.#emit(event),
    () => this.client,
  );

  constructor(options: InspectorBridgeOptions = {}) {
    this.#login = options.login;
    this.#bearer = options.bearer;
  }

  /** Registers an event listener; returns the function that removes it. */
  subscribe(listener: (event: InspectorEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(event: InspectorEvent): void {
    if (event.type === 'frame' || event.type === 'notification') {
      this.#recent.push(event);
      if (this.#recent.length > REPLAYED_EVENTS) this.#recent.shift();
    }
    for (const listener of this.#listeners) listener(event);
  }

  /**
   * For a page that just opened: the latest history and notification events (at most
   * {@link REPLAYED_EVENTS}), oldest first, then the requests still waiting for an answer.
   */
  recent(): readonly InspectorEvent[] {
    return [...this.#recent, ...[...this.#pending.values()].map((p) => p.event)];
  }

  /** The connected client. @throws Error when not connected. */
  get client(): Client {
    if (!this.#client) throw new Error('not connected');
    return this.#client;
  }

  /** Connects to `target` (closing any earlier connection) and reports what was negotiated. */
  async connect(target: InspectorTarget, era: EraPreference): Promise<unknown> {
    await this.disconnect();
    this.#history.length = 0;
    this.#server =
      target.kind === 'http'
        ? target.url
        : target.kind === 'stdio'
          ? [target.command, ...target.args].join(' ')
          : 'the built-in everything server';
    this.#http = target.kind === 'http';
    if (this.#http) this.#login?.resetRequired();
    this.watch.reset();
    const stdio = target.kind !== 'http';
    const record = (frame: RecordedFrame): void => {
      if (stdio) this.watch.frame(frame);
      this.#received.note(frame);
      this.#history.push(frame);
      if (this.#history.length > MAX_HISTORY) this.#history.shift();
      this.#emit({ type: 'frame', ...frame });
    };
    const auth = { login: this.#login, bearer: this.#bearer };
    const opened = openTransport(target, auth, {
      fetch: this.watch.network.fetch(),
      onNonProtocolLine: (line) => {
        record(nonProtocolFrame(line));
        this.watch.nonProtocolLine(line);
      },
    });
    const transport = recordingTransport(this.watch.wrap(opened), record);
    const client = this.#newClient(era);
    try {
      await client.connect(transport);
    } catch (error) {
      await transport.close().catch(() => undefined);
      throw target.kind === 'http' && this.#login ? this.#login.explain(target.url, error) : error;
    }
    if (this.#http) await this.#login?.refresh();
    if (this.#http) this.#login?.attend((url) => this.#emit({ type: 'authorize', url: url.href }));
    // A pinned modern era skips the probe; server/discover tells what the panel shows.
    if (client.era === 'modern' && !client.serverCapabilities) await client.discover().catch(() => undefined);
    this.#eraReason = eraReason(era, this.#history);
    this.#client = client;
    this.#startListening(client);
    return this.state();
  }

  #newClient(era: EraPreference): Client {
    return createClient({
      name: 'mcpkit-inspector',
      version: '0.1.0',
      era,
      logLevel: 'debug',
      elicitationModes: ['form', 'url'],
      extensions: [uiClientExtension()],
      handlers: {
        elicitation: (params, { signal }) => this.#ask('elicitation', params, signal) as never,
        sampling: (params, { signal }) => this.#ask('sampling', params, signal) as never,
        roots: async () => ({ roots: this.#roots }),
      },
      onNotification: (notification) => this.#emit({ type: 'notification', notification }),
    });
  }

  #startListening(client: Client): void {
    const caps = client.serverCapabilities ?? {};
    const filter = listChangedFilter(caps);
    if (Object.keys(filter).length === 0) return;
    const subscription = client.listen(filter);
    this.#listen = subscription;
    subscription.acknowledged.then(
      (acknowledged) => this.#emit({ type: 'listening', filter: acknowledged }),
      () => undefined,
    );
    void (async () => {
      for await (const _ of subscription); // notifications also reach onNotification
    })().catch(() => undefined);
  }

  /**
   * Runs the OAuth login for an HTTP target (see {@link InspectorLogin}); resolves with the
   * authorization URL for the person to open. When the browser has come back, connects and
   * sends a `state` event; a failure sends a `login` event with its `error`.
   */
  async login(target: InspectorTarget, era: EraPreference): Promise<{ authorizationUrl: string }> {
    if (target.kind !== 'http' || !this.#login) throw new Error('log in needs a Streamable HTTP URL');
    this.#http = true;
    const { authorizationUrl, done } = await this.#login.start(target.url, target.clientId);
    done
      .then(
        () => this.connect(target, era),
        (error: unknown) => {
          throw new Error(`login failed: ${messageOf(error)}`);
        },
      )
      .then(
        (state) => this.#emit({ type: 'state', state }),
        (error: unknown) => {
          this.#emit({ type: 'login', error: messageOf(error) });
          this.#emit({ type: 'state', state: this.state() });
        },
      );
    return { authorizationUrl: authorizationUrl.href };
  }

  /** Sends a `state` event when a request changed the login (a step-up, a refresh). */
  async #loginChanged(): Promise<void> {
    const before = JSON.stringify(this.#login?.state());
    await this.#login?.refresh().catch(() => undefined);
    if (JSON.stringify(this.#login?.state()) !== before) this.#emit({ type: 'state', state: this.state() });
  }

  /** Forgets the tokens of the current HTTP target and disconnects. */
  async logout(): Promise<unknown> {
    await this.#login?.logout();
    await this.disconnect();
    return this.state();
  }

  /**
   * The frames of this connection (the latest {@link MAX_HISTORY}) as a recording that
   * `mcpkit replay` serves: JSON Lines, secrets redacted (record/format.ts).
   */
  exportHistory(): string {
    const header = {
      mcpkitRecording: 1 as const,
      transport: this.#http ? ('http' as const) : ('stdio' as const),
      server: this.#server,
      recordedAt: new Date(this.#history[0]?.at ?? Date.now()).toISOString(),
    };
    const start = this.#history[0]?.at ?? 0;
    const lines = this.#history.map((f) =>
      recordedLine({
        at: f.at - start,
        from: f.direction === 'out' ? 'client' : 'server',
        message: f.message,
      }),
    );
    return recordingText(header, lines);
  }

  /** What the web app shows after connecting; `auth` (never a token) for HTTP targets. */
  state(): unknown {
    const client = this.#client;
    const auth = this.#http && this.#login ? { auth: this.#login.state() } : {};
    if (!client) return { connected: false, roots: this.#roots, ...auth };
    return {
      ...auth,
      connected: true,
      era: client.era,
      eraReason: this.#eraReason,
      transport: this.#http ? 'http' : 'stdio',
      protocolVersion: client.protocolVersion,
      serverInfo: client.serverInfo,
      capabilities: client.serverCapabilities,
      instructions: client.instructions,
      roots: this.#roots,
    };
  }

  /** Closes the connection, if any, and refuses what was waiting for the person. */
  async disconnect(): Promise<void> {
    this.apps.closeAll();
    this.#login?.unattend();
    this.#listen?.close();
    this.#listen = undefined;
    for (const controller of this.#calls.values()) controller.abort();
    for (const [id, pending] of this.#pending) {
      pending.reject(new Error('disconnected'));
      this.#emit({ type: 'input-done', id });
    }
    this.#pending.clear();
    const client = this.#client;
    this.#client = undefined;
    if (client) this.watch.closing();
    await client?.close().catch(() => undefined);
    this.watch.network.stop();
  }

  /**
   * `tools/call` with live progress (events of type `progress`); `cancel(callId)` aborts it.
   * A result refused for its `structuredContent` fails with the result as received in `data`.
   */
  async callTool(callId: string, name: string, args: Record<string, unknown>): Promise<unknown> {
    const controller = new AbortController();
    this.#calls.set(callId, controller);
    try {
      return await this.client.callTool(name, args, {
        signal: controller.signal,
        onprogress: (update) => this.#emit({ type: 'progress', callId, ...update }),
      });
    } catch (error) {
      throw withReceived(error, this.#received.take(name));
    } finally {
      this.#received.take(name); // what a successful call left behind
      this.#calls.delete(callId);
      if (this.#http) await this.#loginChanged();
    }
  }

  /** Aborts a running call (the client sends the cancellation); false when it already ended. */
  cancel(callId: string): boolean {
    const controller = this.#calls.get(callId);
    controller?.abort();
    return controller !== undefined;
  }

  /** Sets the roots and tells a legacy server they changed. */
  setRoots(roots: InspectorRoot[]): void {
    this.#roots = roots;
    if (this.#client) this.#client.notifyRootsChanged();
  }

  /** Answers a waiting elicitation or sampling request; false when none waits under `id`. */
  answer(id: string, outcome: { result?: unknown; error?: string }): boolean {
    const pending = this.#pending.get(id);
    if (!pending) return false;
    this.#pending.delete(id);
    if (outcome.error !== undefined) pending.reject(new Error(outcome.error));
    else pending.resolve(outcome.result);
    this.#emit({ type: 'input-done', id });
    return true;
  }

  #ask(kind: 'elicitation' | 'sampling', params: unknown, signal: AbortSignal): Promise<unknown> {
    const id = randomUUID();
    const event: InspectorEvent = { type: 'input', id, kind, params };
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, event });
      signal.addEventListener(
        'abort',
        () => {
          if (this.#pending.delete(id)) this.#emit({ type: 'input-done', id });
          reject(new Error('the server cancelled the request'));
        },
        { once: true },
      );
      this.#emit(event);
    });
  }
}
