/**
 * The inspector's one MCP client and what the web app may ask of it. Everything MCP happens
 * here, in mcpkit's client; the web app only sends intents and renders what comes back.
 * Server-to-client requests (elicitation, sampling) wait for the person at the browser;
 * roots are what the person configured. Events (history, notifications, progress, input
 * requests) go to every open event stream.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import {
  createClient,
  listChangedFilter,
  TaskHandle,
  tasksExtension,
  type Client,
  type EraPreference,
} from '../../client/index.js';
import { LocalError } from '../../core/index.js';
import { AppViews } from './apps.js';
import { ReceivedResults, withReceived } from './received.js';
import type { InspectorLogin } from './login.js';
import { recordedLine, recordingText } from '../record/format.js';
import { nonProtocolFrame, recordingTransport, type RecordedFrame } from './recorder.js';
import { openTransport, type InspectorTarget } from './target.js';
import { ConnectionWatch, eraReason } from './watch.js';
import { clientOptionsOf, DEFAULT_SETTINGS, parseSettings, type ClientSettings } from './settings.js';
import { TaskBoard, TERMINAL, type InspectedTask } from './tasks.js';

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
/** Most tasks followed at once (polled until they end). */
const MAX_FOLLOWED = 50;
/** Bounds of the poll interval of a legacy task, whatever the server suggests (ms). */
const POLL_MS = { min: 200, max: 5000, fallback: 1000 };
/** Longest wait for a legacy task's `tasks/result` (ms). */
const TASK_RESULT_TIMEOUT_MS = 30 * 60_000;
/** Pages of `tasks/list` fetched at most. */
const MAX_TASK_PAGES = 10;
/** Where a legacy server names the task a request belongs to (2025-11-25 basic/utilities/tasks). */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

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
  /** The tasks this client follows to their end, by task id (aborted on disconnect). */
  readonly #followed = new Map<string, AbortController>();
  /** The task whose input requests a handler is answering (modern task handles). */
  readonly #taskScope = new AsyncLocalStorage<string>();
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
  /** Every task this connection created or learnt about (Tasks view). */
  readonly tasks = new TaskBoard((task) => this.#emit({ type: 'task', task }));
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
    this.#last = { target, era };
    this.tasks.reset();
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
      this.tasks.frame(frame);
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
    this.#lost = undefined;
    this.tasks.era = client.era ?? 'modern';
    this.#startListening(client);
    return this.state();
  }

  #newClient(era: EraPreference): Client {
    return createClient({
      name: 'mcpkit-inspector',
      version: '0.1.0',
      era,
      logLevel: 'debug',
      ...clientOptionsOf(this.#settings, {
        elicitation: (params, { signal }) => this.#ask('elicitation', params, signal) as never,
        sampling: (params, { signal }) => this.#ask('sampling', params, signal) as never,
        roots: async () => ({ roots: this.#roots }),
      }),
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
    for (const controller of this.#followed.values()) controller.abort();
    this.#followed.clear();
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
  async callTool(
    callId: string,
    name: string,
    args: Record<string, unknown>,
    asTask = false,
  ): Promise<unknown> {
    const controller = new AbortController();
    this.#calls.set(callId, controller);
    const options = {
      signal: controller.signal,
      onprogress: (update: object) => this.#emit({ type: 'progress', callId, ...update }),
    };
    try {
      if (asTask) return await this.#callAsTask(name, args, options);
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

  /**
   * `tools/call` that allows a task. Modern: the call declares the Tasks extension (when
   * advertised, see {@link ClientSettings}) and a task answer is followed through its handle
   * (SEP-2663). Legacy: the call carries the `task` field (2025-11-25 basic/utilities/tasks
   * "Creating Tasks") and the task is followed with `tasks/get` and `tasks/result`.
   * Resolves with `{ task: { taskId } }`, or the tool result when the server ran it at once.
   */
  async #callAsTask(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onprogress: (update: object) => void },
  ): Promise<unknown> {
    const client = this.client;
    if (client.era === 'legacy') {
      const created = await client.request('tools/call', { name, arguments: args, task: {} } as never, options);
      const task = (created as { task?: { taskId?: unknown } }).task;
      if (typeof task?.taskId !== 'string') return created;
      this.#followLegacy(client, task.taskId);
      return { task: { taskId: task.taskId } };
    }
    if (!this.#settings.extensions.includes(tasksExtension.id)) return client.callTool(name, args, options);
    const outcome = await client.callTool(name, args, { ...options, task: 'allow' });
    if (!(outcome instanceof TaskHandle)) return outcome;
    this.#followModern(outcome);
    return { task: { taskId: outcome.taskId } };
  }

  /**
   * Follows a modern task to its end through its handle, which polls `tasks/get` and
   * answers input requests through the handlers (the scope tags them with the task).
   */
  #followModern(handle: TaskHandle): void {
    const signal = this.#follow(handle.taskId);
    if (!signal) return;
    void this.#taskScope
      .run(handle.taskId, () => handle.result({ signal }))
      .catch(() => undefined)
      .finally(() => this.#followed.delete(handle.taskId));
  }

  /** Starts following `taskId`: the signal that stops it, or undefined when too many are followed. */
  #follow(taskId: string): AbortSignal | undefined {
    if (this.#followed.size >= MAX_FOLLOWED || this.#followed.has(taskId)) return undefined;
    const controller = new AbortController();
    this.#followed.set(taskId, controller);
    return controller.signal;
  }

  /**
   * Follows a legacy task: `tasks/result` at once (the server sends the requests the task
   * needs on it, and it answers when the task ends) and `tasks/get` at the poll interval
   * for its status over time, until it ends.
   */
  #followLegacy(client: Client, taskId: string): void {
    const signal = this.#follow(taskId);
    if (!signal) return;
    const stop = () => this.#followed.get(taskId)?.abort();
    void client
      .request('tasks/result' as never, { taskId } as never, {
        signal,
        timeoutMs: TASK_RESULT_TIMEOUT_MS,
      })
      .catch(() => undefined);
    void (async () => {
      while (!signal.aborted) {
        const task = await client.request('tasks/get' as never, { taskId } as never, { signal });
        const { status, pollInterval } = task as { status?: unknown; pollInterval?: unknown };
        if (typeof status === 'string' && TERMINAL.has(status)) break;
        const wanted = typeof pollInterval === 'number' ? pollInterval : POLL_MS.fallback;
        const wait = Math.min(POLL_MS.max, Math.max(POLL_MS.min, wanted));
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    })()
      .catch(() => undefined)
      // tasks/result may still be on its way back: let it land before forgetting the task.
      .finally(() => setTimeout(() => (stop(), this.#followed.delete(taskId)), 5000).unref());
  }

  /** The tasks seen on this connection, the newest first, and the task inputs still waiting. */
  listedTasks(): { tasks: InspectedTask[]; inputs: InspectorEvent[] } {
    const inputs = [...this.#pending.values()].map((p) => p.event).filter((e) => e.taskId !== undefined);
    return { tasks: this.tasks.list(), inputs };
  }

  /**
   * `tasks/list` (legacy servers that declare `tasks.list`; every page up to
   * {@link MAX_TASK_PAGES}): the tasks appear on the board.
   * @throws Error on a modern server: the Tasks extension has no `tasks/list` (SEP-2663).
   */
  async listTasks(): Promise<InspectedTask[]> {
    const client = this.client;
    if (client.era !== 'legacy')
      throw new Error(
        'the Tasks extension has no tasks/list (SEP-2663): look a task up by its id instead',
      );
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TASK_PAGES; page++) {
      const params = cursor === undefined ? {} : { cursor };
      const result = (await client.request('tasks/list' as never, params as never)) as { nextCursor?: unknown };
      if (typeof result.nextCursor !== 'string') break;
      cursor = result.nextCursor;
    }
    return this.tasks.list();
  }

  /**
   * Reads a task by id (`tasks/get`): a task of another client or of another instance of a
   * fleet appears on the board this way.
   * @throws the server's error for an unknown task.
   */
  async lookUpTask(taskId: string): Promise<InspectedTask | undefined> {
    const client = this.client;
    if (client.era === 'legacy') {
      await client.request('tasks/get' as never, { taskId } as never);
    } else {
      const handle = client.resumeTask({ taskId, toolName: this.tasks.get(taskId)?.toolName ?? '' });
      const task = await handle.status();
      // A task still running is followed from here on, as one this client created.
      if (!TERMINAL.has(task.status)) this.#followModern(handle);
    }
    return this.tasks.get(taskId);
  }

  /** Asks the server to cancel a task (`tasks/cancel`), then reads its status once. */
  async cancelTask(taskId: string): Promise<InspectedTask | undefined> {
    const client = this.client;
    if (client.era === 'legacy') {
      await client.request('tasks/cancel' as never, { taskId } as never);
    } else {
      const handle = client.resumeTask({ taskId, toolName: this.tasks.get(taskId)?.toolName ?? '' });
      await handle.cancel();
      await handle.status();
    }
    return this.tasks.get(taskId);
  }

  /** The client settings in use. */
  get settings(): ClientSettings {
    return this.#settings;
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
    for (const controller of this.#followed.values()) controller.abort();
    this.#followed.clear();
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
    const taskId = this.#taskScope.getStore() ?? relatedTask(params);
    const event: InspectorEvent = { type: 'input', id, kind, params, ...(taskId ? { taskId } : {}) };
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

/** The task a legacy server request belongs to, from its related-task `_meta`. */
function relatedTask(params: unknown): string | undefined {
  const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const related = meta?.[RELATED_TASK] as { taskId?: unknown } | undefined;
  return typeof related?.taskId === 'string' ? related.taskId.slice(0, 200) : undefined;
}

/** How a stdio server ended, in words. */
function describeExit(exit: unknown): string {
  const { code, signal, message } = (exit ?? {}) as { code?: unknown; signal?: unknown; message?: unknown };
  const how = typeof signal === 'string' ? `killed by ${signal}` : `exited with code ${String(code ?? 'unknown')}`;
  return typeof message === 'string' ? `${how} (${message})` : how;
}
