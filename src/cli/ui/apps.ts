/**
 * The host side of MCP Apps in the inspector. Opening a tool's app reads its `ui://`
 * resource, builds the view's CSP from the declared domains (deny by default) and calls
 * the tool; the page renders the view through the sandbox origin and relays what the view
 * posts here. This side answers `ui/initialize`, sends the tool input and result once the
 * view is initialized, proxies `tools/call` and `resources/read` to the connected server
 * with the visibility checks, records `ui/message` and `ui/update-model-context`, passes
 * size changes to the page, and reports every refusal. All of it shows in the history.
 * Source: ext-apps specification 2026-01-26 "Communication Protocol", "Lifecycle",
 * "MCP Apps Specific Messages", "Host Context", "Visibility".
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '../../client/index.js';
import { WireError, type ErrorName, type Tool } from '../../core/index.js';
import {
  APP_MIME_TYPE,
  APP_PROTOCOL_VERSION,
  appAllowAttribute,
  appCspHeader,
  toolUiOf,
} from '../../core/apps.js';
import { checkViewMessage, toolRefusal } from './app-rules.js';
import type { SandboxView } from './sandbox.js';

type Emit = (event: { type: string; [key: string]: unknown }) => void;

/** Largest view HTML the inspector renders, in characters. */
const MAX_HTML = 5 * 1024 * 1024;
/** Most views open at once (the oldest is closed first). */
const MAX_VIEWS = 8;
/** Most view requests in flight per view. */
const MAX_PENDING = 16;

interface View extends SandboxView {
  readonly id: string;
  readonly tool: Tool;
  readonly uri: string;
  readonly arguments: Record<string, unknown>;
  initialized: boolean;
  result?: { ok: true; value: unknown } | { ok: false; reason: string };
  pending: number;
  modelContext?: unknown;
}

/** What the page needs to render a view. */
export interface OpenedView {
  viewId: string;
  resourceUri: string;
  sandboxUrl: string;
  html: string;
  csp: string;
  ui: Record<string, unknown>;
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** The views open in the inspector, for one connection at a time. */
export class AppViews {
  readonly #views = new Map<string, View>();
  readonly #emit: Emit;
  readonly #client: () => Client;
  #sandbox = '';

  constructor(emit: Emit, client: () => Client) {
    this.#emit = emit;
    this.#client = client;
  }

  /** Where the sandbox proxies are served (set once the sandbox origin listens). */
  set sandboxOrigin(origin: string) {
    this.#sandbox = origin;
  }

  /** The open view `viewId`, for the sandbox origin. */
  view(viewId: string): SandboxView | undefined {
    return this.#views.get(viewId);
  }

  /** The connected server's tools that have a view, as the page lists them. */
  async list(): Promise<unknown[]> {
    const tools = await this.#client().listTools();
    return tools.flatMap((tool) => {
      const ui = toolUiOf(tool);
      return ui.resourceUri ? [{ ...tool, ui }] : [];
    });
  }

  /**
   * Opens the app of tool `name`: reads its view, then calls the tool with `args` (the
   * result goes to the view once it is initialized).
   * @throws Error for a tool without a view, one the model may not call, or a bad resource.
   */
  async open(name: string, args: Record<string, unknown>): Promise<OpenedView> {
    const client = this.#client();
    const tool = (await client.listTools()).find((t) => t.name === name);
    const ui = tool ? toolUiOf(tool) : undefined;
    if (!tool || !ui?.resourceUri) throw new Error(`tool '${name}' has no app (no _meta.ui.resourceUri)`);
    if (!ui.visibility.includes('model')) throw new Error(`tool '${name}' is for its app only`);
    const { html, meta } = await this.#read(ui.resourceUri);
    const view: View = {
      id: randomUUID(),
      tool,
      uri: ui.resourceUri,
      arguments: args,
      csp: appCspHeader(meta.csp),
      allow: appAllowAttribute(meta.permissions),
      initialized: false,
      pending: 0,
    };
    this.#keep(view);
    client.callTool(name, args).then(
      (value) => this.#settle(view, { ok: true, value }),
      (error: unknown) =>
        this.#settle(view, { ok: false, reason: String((error as Error).message ?? error) }),
    );
    return {
      viewId: view.id,
      resourceUri: view.uri,
      sandboxUrl: `${this.#sandbox}/sandbox/${view.id}`,
      html,
      csp: view.csp,
      ui: meta,
    };
  }

  /** Reads a view: its HTML and `_meta.ui` (the content's, else the list entry's). */
  async #read(uri: string): Promise<{ html: string; meta: Record<string, unknown> }> {
    const client = this.#client();
    const { contents } = await client.readResource(uri);
    const content = record(contents.find((c) => c.mimeType === APP_MIME_TYPE));
    const html =
      typeof content.text === 'string'
        ? content.text
        : typeof content.blob === 'string'
          ? Buffer.from(content.blob, 'base64').toString('utf8')
          : undefined;
    if (html === undefined) throw new Error(`${uri} has no ${APP_MIME_TYPE} content`);
    if (html.length > MAX_HTML) throw new Error(`${uri} is over ${MAX_HTML} characters`);
    let meta = record(record(content._meta).ui);
    if (Object.keys(meta).length === 0) {
      const listed = (await client.listResources().catch(() => [])).find((r) => r.uri === uri);
      meta = record(record(listed?._meta).ui);
    }
    return { html, meta };
  }

  #keep(view: View): void {
    this.#views.set(view.id, view);
    for (const id of this.#views.keys()) if (this.#views.size > MAX_VIEWS) this.close(id);
  }

  /** Closes a view (its later messages are refused). */
  close(viewId: string): void {
    if (this.#views.delete(viewId)) this.#emit({ type: 'app-closed', viewId });
  }

  /** Closes every view (on disconnect). */
  closeAll(): void {
    for (const id of [...this.#views.keys()]) this.close(id);
  }

  #settle(view: View, result: NonNullable<View['result']>): void {
    view.result = result;
    if (view.initialized) this.#sendResult(view);
  }

  #sendResult(view: View): void {
    const r = view.result;
    if (!r) return;
    if (r.ok) this.#send(view, { jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: r.value });
    else
      this.#send(view, {
        jsonrpc: '2.0',
        method: 'ui/notifications/tool-cancelled',
        params: { reason: r.reason },
      });
  }

  #send(view: View, message: Record<string, unknown>): void {
    this.#emit({ type: 'frame', channel: 'app', viewId: view.id, direction: 'out', at: Date.now(), message });
    this.#emit({ type: 'app-out', viewId: view.id, message });
  }

  #refuse(viewId: string, refusal: { reason: string; message: unknown }): void {
    this.#emit({ type: 'app-refused', viewId, reason: refusal.reason, message: refusal.message });
  }

  #answer(view: View, id: string | number, outcome: { result: unknown } | { error: WireError }): void {
    const body = 'result' in outcome ? { result: outcome.result } : { error: outcome.error.toJSON() };
    this.#send(view, { jsonrpc: '2.0', id, ...body });
  }

  /** Handles one message a view posted (relayed by the page); never throws. */
  receive(viewId: string, raw: unknown): void {
    const view = this.#views.get(viewId);
    this.#emit({ type: 'frame', channel: 'app', viewId, direction: 'in', at: Date.now(), message: raw });
    if (!view) return this.#refuse(viewId, { reason: 'no such open view', message: raw });
    const checked = checkViewMessage(raw);
    if (!checked.ok) {
      this.#refuse(viewId, { reason: `malformed JSON-RPC: ${checked.reason}`, message: raw });
      if (checked.id !== undefined)
        this.#answer(view, checked.id, { error: fault('InvalidRequest', checked.reason) });
      return;
    }
    const message = checked.message;
    if (message.kind === 'response') return;
    if (message.kind === 'notification') return this.#notified(view, message.method, message.params);
    if (view.pending >= MAX_PENDING) {
      this.#refuse(viewId, { reason: 'too many requests in flight', message: raw });
      return this.#answer(view, message.id, {
        error: fault('TooManyRequests', 'too many requests in flight'),
      });
    }
    view.pending++;
    this.#request(view, message.method, message.params)
      .then(
        (result) => this.#answer(view, message.id, { result }),
        (error: unknown) => {
          const wire =
            error instanceof WireError ? error : fault('InternalError', String((error as Error).message));
          if ((error as { refused?: boolean }).refused)
            this.#refuse(viewId, { reason: wire.message, message: raw });
          this.#answer(view, message.id, { error: wire });
        },
      )
      .finally(() => view.pending--);
  }

  #notified(view: View, method: string, params: Record<string, unknown>): void {
    if (method === 'ui/notifications/initialized') {
      if (view.initialized) return;
      view.initialized = true;
      this.#send(view, {
        jsonrpc: '2.0',
        method: 'ui/notifications/tool-input',
        params: { arguments: view.arguments },
      });
      return this.#sendResult(view);
    }
    if (method === 'ui/notifications/size-changed') {
      const size = (v: unknown) =>
        typeof v === 'number' && v >= 0 && v <= 10_000 ? Math.round(v) : undefined;
      return this.#emit({
        type: 'app-size',
        viewId: view.id,
        width: size(params.width),
        height: size(params.height),
      });
    }
    if (method === 'notifications/message') return this.#emit({ type: 'app-log', viewId: view.id, params });
    if (method === 'ui/notifications/request-teardown') return this.close(view.id);
  }

  async #request(view: View, method: string, params: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case 'ui/initialize':
        return this.#initialize(view);
      case 'ping':
        return {};
      case 'tools/call':
        return this.#callTool(view, params);
      case 'resources/read':
        if (typeof params.uri !== 'string') throw fault('InvalidParams', 'resources/read needs a uri');
        return this.#client().readResource(params.uri);
      case 'ui/message':
      case 'ui/update-model-context':
        return this.#toModel(view, method, params);
      case 'ui/request-display-mode':
        return { mode: 'inline' };
      default:
        throw fault('MethodNotFound', `the inspector does not offer ${method} to apps`);
    }
  }

  #initialize(view: View): unknown {
    return {
      protocolVersion: APP_PROTOCOL_VERSION,
      hostInfo: { name: 'mcpkit-inspector', version: '0.1.0' },
      hostCapabilities: {
        serverTools: {},
        serverResources: {},
        logging: {},
        message: { text: {} },
        updateModelContext: { text: {}, structuredContent: {} },
      },
      hostContext: {
        toolInfo: { tool: view.tool },
        theme: 'light',
        displayMode: 'inline',
        availableDisplayModes: ['inline'],
        containerDimensions: { maxHeight: 2000 },
        platform: 'web',
      },
    };
  }

  async #callTool(view: View, params: Record<string, unknown>): Promise<unknown> {
    const tools = await this.#client().listTools();
    const refusal = toolRefusal(params.name, tools, view.uri);
    if (refusal) throw Object.assign(fault('Forbidden', refusal), { refused: true });
    return this.#client().callTool(params.name as string, record(params.arguments));
  }

  #toModel(view: View, method: string, params: Record<string, unknown>): unknown {
    if (method === 'ui/message' && params.role !== 'user')
      throw Object.assign(fault('InvalidParams', 'ui/message role must be "user"'), { refused: true });
    if (method === 'ui/update-model-context') view.modelContext = params;
    this.#emit({ type: method === 'ui/message' ? 'app-message' : 'app-context', viewId: view.id, params });
    return {};
  }
}

function fault(name: ErrorName, message: string): WireError {
  return WireError.of(name, message);
}
