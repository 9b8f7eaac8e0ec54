/**
 * The inspector's one MCP client and what the web app may ask of it. Everything MCP happens
 * here, in mcpkit's client; the web app only sends intents and renders what comes back.
 * Server-to-client requests (elicitation, sampling) wait for the person at the browser;
 * roots are what the person configured. Events (history, notifications, progress, input
 * requests) go to every open event stream.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createClient, streamableHttp, type Client, type EraPreference } from '../../client/index.js';
import type { Transport } from '../../core/index.js';
import { spawnStdio } from '../../integrations/stdio/index.js';
import { ReceivedResults, withReceived } from './received.js';
import { recordingTransport } from './recorder.js';

/** Where to connect: a command to spawn, a Streamable HTTP URL with headers, or the built-in server. */
export type InspectorTarget =
  | { kind: 'stdio'; command: string; args: string[] }
  | { kind: 'http'; url: string; headers: Record<string, string> }
  | { kind: 'builtin' };

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

const EVERYTHING_MAIN = new URL('../../../servers/everything/main.js', import.meta.url);

function openTransport(target: InspectorTarget): Transport {
  if (target.kind === 'http') return streamableHttp(target.url, { headers: target.headers });
  const builtin = fileURLToPath(EVERYTHING_MAIN);
  if (target.kind === 'builtin' && !existsSync(builtin))
    throw new Error(`the built-in everything server is missing (${builtin}); run \`npm run build\``);
  const { command, args } = target.kind === 'stdio' ? target : { command: process.execPath, args: [builtin] };
  return spawnStdio({ command, args, env: { ...process.env }, stderr: 'pipe' });
}

/** The client side of the inspector: one connection at a time. */
export class InspectorBridge {
  readonly #listeners = new Set<(event: InspectorEvent) => void>();
  readonly #pending = new Map<string, Pending>();
  readonly #calls = new Map<string, AbortController>();
  readonly #recent: InspectorEvent[] = [];
  readonly #received = new ReceivedResults();
  #roots: InspectorRoot[] = [];
  #client: Client | undefined;
  #listen: { close(): void } | undefined;

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
    const transport = recordingTransport(openTransport(target), (frame) => {
      this.#received.note(frame);
      this.#emit({ type: 'frame', ...frame });
    });
    const client = this.#newClient(era);
    try {
      await client.connect(transport);
    } catch (error) {
      await transport.close().catch(() => undefined);
      throw error;
    }
    // A pinned modern era skips the probe; server/discover tells what the panel shows.
    if (client.era === 'modern' && !client.serverCapabilities) await client.discover().catch(() => undefined);
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
    const filter = {
      ...(caps.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(caps.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(caps.resources?.listChanged ? { resourcesListChanged: true } : {}),
    };
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

  /** What the web app shows after connecting. */
  state(): unknown {
    const client = this.#client;
    if (!client) return { connected: false, roots: this.#roots };
    return {
      connected: true,
      era: client.era,
      protocolVersion: client.protocolVersion,
      serverInfo: client.serverInfo,
      capabilities: client.serverCapabilities,
      instructions: client.instructions,
      roots: this.#roots,
    };
  }

  /** Closes the connection, if any, and refuses what was waiting for the person. */
  async disconnect(): Promise<void> {
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
    await client?.close().catch(() => undefined);
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
