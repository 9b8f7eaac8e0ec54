/**
 * The inspector's one MCP client and what the web app may ask of it. Everything MCP happens
 * here, in mcpkit's client; the web app only sends intents and renders what comes back.
 * Server-to-client requests (elicitation, sampling) wait for the person at the browser;
 * roots are what the person configured. Events (history, notifications, progress, input
 * requests) go to every open event stream.
 */
import type { Client, EraPreference } from '../../client/index.js';
import { LocalError } from '../../core/index.js';
import { AppViews } from './apps.js';
import { ReceivedResults, withReceived } from './received.js';
import type { InspectorLogin } from './login.js';
import { historyRecording, nonProtocolFrame, recordingTransport, type RecordedFrame } from './recorder.js';
import { openTransport, type InspectorTarget } from './target.js';
import { ConnectionWatch, describeExit, eraReason, listenForChanges } from './watch.js';
import { DEFAULT_SETTINGS, inspectorClient, parseSettings, type ClientSettings } from './settings.js';
import type { InspectedTask } from './tasks.js';
import { TaskRunner } from './task-runner.js';
import { PendingInputs } from './inputs.js';

/** An event for the web app. */
export type InspectorEvent = { type: string; [key: string]: unknown };

/** A root the person configured (client/roots). */
export interface InspectorRoot {
  uri: string;
  name?: string;
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
  /** Elicitation and sampling requests waiting for the person. */
  readonly #inputs = new PendingInputs((event) => this.#emit(event));
  readonly #calls = new Map<string, AbortController>();
  #settings: ClientSettings = DEFAULT_SETTINGS;
  /** The last target and era connected to, for a reconnect. */
  #last: { target: InspectorTarget; era: EraPreference } | undefined;
  /** Why the connection was lost (the server died or could not be reached), until the next connect. */
  #lost: string | undefined;
  readonly #recent: InspectorEvent[] = [];
  readonly #history: RecordedFrame[] = [];
  #server = '';
  #eraReason = '';
  /** The network, console and era of the current connection (Network and Console views). */
  readonly watch = new ConnectionWatch((event) => this.#emit(event));
  readonly #received = new ReceivedResults();
  /** Every task this connection created or learnt about, and what is done with them (Tasks view). */
  readonly tasks = new TaskRunner({
    emit: (task) => this.#emit({ type: 'task', task }),
    client: () => this.client,
    settings: () => this.#settings,
  });
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
    if (event.type === 'server-exit' && !(event.exit as { requested?: boolean }).requested)
      void this.#connectionLost(`the server died: ${describeExit(event.exit)}`);
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
    return [...this.#recent, ...this.#inputs.events()];
  }

  /** The connected client. @throws Error when not connected. */
  get client(): Client {
    if (!this.#client) throw new Error('not connected');
    return this.#client;
  }

  /** Connects to `target` (closing any earlier connection) and reports what was negotiated. */
  async connect(target: InspectorTarget, era: EraPreference): Promise<unknown> {
    await this.disconnect();
    this.#last = { target, era };
    this.tasks.board.reset();
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
      this.tasks.board.frame(frame);
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
    const client = inspectorClient(era, this.#settings, {
      ask: (kind, params, signal) =>
        this.#inputs.ask({ kind, params, taskId: this.tasks.taskOf(params) }, signal),
      roots: () => this.#roots,
      notify: (notification) => this.#emit({ type: 'notification', notification }),
    });
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
    this.#lost = undefined;
    this.tasks.board.era = client.era ?? 'modern';
    this.#listen = listenForChanges(client, (event) => this.#emit(event));
    return this.state();
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
    return historyRecording(this.#history, { http: this.#http, server: this.#server });
  }

  /** What the web app shows after connecting; `auth` (never a token) for HTTP targets. */
  state(): unknown {
    const client = this.#client;
    const auth = this.#http && this.#login ? { auth: this.#login.state() } : {};
    const common = { roots: this.#roots, settings: this.#settings, ...auth };
    if (!client) return { connected: false, ...(this.#lost ? { lost: this.#lost } : {}), ...common };
    return {
      ...common,
      connected: true,
      era: client.era,
      eraReason: this.#eraReason,
      transport: this.#http ? 'http' : 'stdio',
      protocolVersion: client.protocolVersion,
      serverInfo: client.serverInfo,
      capabilities: client.serverCapabilities,
      instructions: client.instructions,
    };
  }

  /** Closes the connection, if any, and refuses what was waiting for the person. */
  async disconnect(): Promise<void> {
    this.apps.closeAll();
    this.#login?.unattend();
    this.#listen?.close();
    this.#listen = undefined;
    for (const controller of this.#calls.values()) controller.abort();
    this.tasks.stop();
    this.#inputs.refuseAll();
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
  async callTool(
    callId: string,
    call: { name: string; arguments: Record<string, unknown>; task?: boolean },
  ): Promise<unknown> {
    const { name, arguments: args } = call;
    const controller = new AbortController();
    this.#calls.set(callId, controller);
    const options = {
      signal: controller.signal,
      onprogress: (update: object) => this.#emit({ type: 'progress', callId, ...update }),
    };
    try {
      if (call.task === true) return await this.tasks.call(name, args, options);
      return await this.client.callTool(name, args, options);
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

  /** The tasks seen on this connection, the newest first, and the task inputs still waiting. */
  listedTasks(): { tasks: InspectedTask[]; inputs: InspectorEvent[] } {
    const inputs = this.#inputs.events().filter((e) => e.taskId !== undefined);
    return { tasks: this.tasks.board.list(), inputs };
  }

  /**
   * Connects again to the last target with the last era (after the server died).
   * @throws Error when nothing was connected yet; the connection's errors.
   */
  reconnect(): Promise<unknown> {
    if (!this.#last) throw new Error('nothing to reconnect to: connect first');
    return this.connect(this.#last.target, this.#last.era);
  }

  /** Changes the client settings and reconnects to the last target, if connected. */
  async configure(settings: unknown): Promise<unknown> {
    this.#settings = parseSettings(settings);
    if (this.#client && this.#last) return this.connect(this.#last.target, this.#last.era);
    return this.state();
  }

  /**
   * Notes a request's failure: a connection that closed (a stdio server that exited) or a
   * server that could not be reached (Streamable HTTP) switches the app to disconnected.
   */
  failed(error: unknown): void {
    if (this.#client && error instanceof LocalError && error.code === 'CONNECTION_CLOSED')
      void this.#connectionLost(error.message);
  }

  /** Drops the connection the server ended, keeping the console and saying why. */
  async #connectionLost(reason: string): Promise<void> {
    if (!this.#client) return;
    this.#lost = reason.slice(0, 2000);
    const client = this.#client;
    this.#client = undefined;
    this.#listen?.close();
    this.#listen = undefined;
    this.tasks.stop();
    this.#inputs.refuseAll();
    this.apps.closeAll();
    this.watch.closing();
    await client.close().catch(() => undefined);
    this.#emit({ type: 'state', state: this.state() });
  }

  /** Sets the roots and tells a legacy server they changed. */
  setRoots(roots: InspectorRoot[]): void {
    this.#roots = roots;
    if (this.#client) this.#client.notifyRootsChanged();
  }

  /** Answers a waiting elicitation or sampling request; false when none waits under `id`. */
  answer(id: string, outcome: { result?: unknown; error?: string }): boolean {
    return this.#inputs.answer(id, outcome);
  }
}
