/**
 * The inspector's JSON API: one POST route per intent of the web app, each a thin call on
 * the {@link InspectorBridge}. Bodies are JSON objects; answers are `{ result }` or, for a
 * failure, `{ error: { message, code?, data? } }` with status 200 (the MCP outcome is data
 * for the app, not an HTTP failure).
 */
import type { EraPreference } from '../../client/index.js';
import type { InspectorBridge, InspectorRoot } from './bridge.js';
import type { InspectorTarget } from './target.js';
import type { Catalog } from './catalog.js';
import { browseRecording, checkConnection, contractSnapshot } from './verify.js';
import { sessionOf } from './session.js';

type Body = Record<string, unknown>;
type Route = (bridge: InspectorBridge, body: Body) => Promise<unknown> | unknown;

const str = (value: unknown, name: string): string => {
  if (typeof value !== 'string') throw new Error(`\`${name}\` must be a string`);
  return value;
};
const obj = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

function target(value: unknown): InspectorTarget {
  const t = obj(value);
  if (t.kind === 'http') {
    const headers = obj(t.headers) as Record<string, string>;
    const clientId = typeof t.clientId === 'string' ? t.clientId.trim() : '';
    return { kind: 'http', url: str(t.url, 'url'), headers, ...(clientId ? { clientId } : {}) };
  }
  if (t.kind === 'stdio') {
    const args = Array.isArray(t.args) ? t.args.map((a) => str(a, 'args[]')) : [];
    return { kind: 'stdio', command: str(t.command, 'command'), args };
  }
  return { kind: 'builtin' };
}

function era(value: unknown): EraPreference {
  return value === 'modern' || value === 'legacy' ? value : 'auto';
}

/** The catalogue of `--config`. @throws Error when the inspector was started without one. */
function catalog(b: InspectorBridge): Catalog {
  const found = sessionOf(b).catalog;
  if (!found) throw new Error('no catalogue: start the inspector with --config FILE');
  return found;
}

const LISTS = {
  tools: (b: InspectorBridge) => b.client.listTools(),
  resources: (b: InspectorBridge) => b.client.listResources(),
  resourceTemplates: (b: InspectorBridge) => b.client.listResourceTemplates(),
  prompts: (b: InspectorBridge) => b.client.listPrompts(),
} as const;

/** One page of each list (client settings: paged lists); the result as the server sent it. */
const PAGES = {
  tools: (b: InspectorBridge, cursor?: string) => b.client.listToolsPage(cursor),
  resources: (b: InspectorBridge, cursor?: string) => b.client.listResourcesPage(cursor),
  resourceTemplates: (b: InspectorBridge, cursor?: string) => b.client.listResourceTemplatesPage(cursor),
  prompts: (b: InspectorBridge, cursor?: string) => b.client.listPromptsPage(cursor),
} as const;

/** The routes under `/api/`, by name. */
export const ROUTES: Record<string, Route> = {
  state: (b) => b.state(),
  export: (b) => b.exportHistory(),
  connect: (b, body) => b.connect(target(body.target), era(body.era)),
  disconnect: async (b) => {
    await b.disconnect();
    return b.state();
  },
  login: (b, body) => b.login(target(body.target), era(body.era)),
  logout: (b) => b.logout(),
  list: (b, body) => {
    const kind = str(body.kind, 'kind');
    if (!Object.hasOwn(LISTS, kind)) throw new Error(`unknown list \`${kind}\``);
    return LISTS[kind as keyof typeof LISTS](b);
  },
  'list-page': (b, body) => {
    const kind = str(body.kind, 'kind');
    if (!Object.hasOwn(PAGES, kind)) throw new Error(`unknown list \`${kind}\``);
    const cursor = body.cursor === undefined ? undefined : str(body.cursor, 'cursor');
    return PAGES[kind as keyof typeof PAGES](b, cursor);
  },
  call: (b, body) =>
    b.callTool(str(body.callId, 'callId'), {
      name: str(body.name, 'name'),
      arguments: obj(body.arguments),
      task: body.task === true,
    }),
  cancel: (b, body) => b.cancel(str(body.callId, 'callId')),
  read: (b, body) => b.client.readResource(str(body.uri, 'uri')),
  complete: (b, body) =>
    b.client.complete(obj(body.ref) as never, obj(body.argument) as never, body.context as never),
  prompt: (b, body) =>
    b.client.getPrompt(str(body.name, 'name'), obj(body.arguments) as Record<string, string>),
  answer: (b, body) => b.answer(str(body.id, 'id'), obj(body)),
  tasks: (b) => b.listedTasks(),
  'tasks-list': (b) => b.tasks.list(),
  'task-get': (b, body) => b.tasks.lookUp(str(body.taskId, 'taskId').trim()),
  'task-cancel': (b, body) => b.tasks.cancel(str(body.taskId, 'taskId')),
  settings: (b, body) => b.configure(body.settings),
  reconnect: (b) => b.reconnect(),
  network: (b) => ({ entries: b.watch.network.list() }),
  console: (b) => b.watch.console(),
  apps: (b) => b.apps.list(),
  'app-open': (b, body) => b.apps.open(str(body.name, 'name'), obj(body.arguments)),
  'app-message': (b, body) => b.apps.receive(str(body.viewId, 'viewId'), body.message),
  'app-close': (b, body) => b.apps.close(str(body.viewId, 'viewId')),
  catalog: (b) => catalog(b).rows(),
  'catalog-connect': (b, body) => catalog(b).connect(str(body.name, 'name')),
  'catalog-disconnect': (b, body) => catalog(b).disconnect(str(body.name, 'name')),
  'catalog-search': (b, body) =>
    catalog(b).search(str(body.query, 'query'), typeof body.limit === 'number' ? body.limit : undefined),
  'catalog-open': (b, body) => {
    const entry = catalog(b).entry(str(body.name, 'name'));
    if (!entry.target) throw new Error(`\`${entry.name}\` cannot be connected here: ${entry.note ?? ''}`);
    return b.connect(entry.target, entry.era);
  },
  contract: (b) => contractSnapshot(sessionOf(b).connection()),
  check: (b) => checkConnection(sessionOf(b).connection()),
  recording: (_b, body) => browseRecording(str(body.text, 'text'), str(body.fileName ?? '', 'fileName')),
  roots: (b, body) => {
    const roots = Array.isArray(body.roots) ? (body.roots as InspectorRoot[]) : [];
    b.setRoots(
      roots.map((r) => ({ uri: str(r.uri, 'uri'), ...(r.name ? { name: str(r.name, 'name') } : {}) })),
    );
    return b.state();
  },
};

/** Describes a failure for the app: message, and the JSON-RPC code and data of a wire error. */
export function describeFailure(error: unknown): { message: string; code?: unknown; data?: unknown } {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, data } = error as Error & { code?: unknown; data?: unknown };
  return {
    message: error.message,
    ...(code === undefined ? {} : { code }),
    ...(data === undefined ? {} : { data }),
  };
}
