/**
 * What the inspector accepts from an app's view: the JSON-RPC envelope (anything else is
 * refused, never acted on) and which tools an app may call. A view is hostile: it may
 * post anything, ask for any tool, and post without pause.
 * Source: ext-apps specification 2026-01-26 "Visibility", "Security Implications" 2
 * (validate all incoming messages, reject malformed ones).
 */
import { type Tool } from '../../core/index.js';
import { toolUiOf } from '../../core/apps.js';

/** A message from a view that passed the envelope check. */
export type ViewMessage =
  | { kind: 'request'; id: string | number; method: string; params: Record<string, unknown> }
  | { kind: 'notification'; method: string; params: Record<string, unknown> }
  | { kind: 'response'; id: string | number };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const MAX_METHOD = 128;
const MAX_ID = 128;

function goodId(id: unknown): id is string | number {
  return (
    (typeof id === 'string' && id.length <= MAX_ID) || (typeof id === 'number' && Number.isSafeInteger(id))
  );
}

/** The message, or why it is malformed (with the id to answer, when it had a usable one). */
export function checkViewMessage(
  raw: unknown,
): { ok: true; message: ViewMessage } | { ok: false; reason: string; id?: string | number } {
  if (!isRecord(raw)) return { ok: false, reason: 'not a JSON-RPC object' };
  const id = goodId(raw.id) ? raw.id : undefined;
  const fail = (reason: string) => ({ ok: false as const, reason, ...(id === undefined ? {} : { id }) });
  if (raw.jsonrpc !== '2.0') return fail('jsonrpc must be "2.0"');
  if (raw.id !== undefined && id === undefined) return fail('id must be a string or an integer');
  if (raw.params !== undefined && !isRecord(raw.params)) return fail('params must be an object');
  const params = isRecord(raw.params) ? raw.params : {};
  if (typeof raw.method === 'string') {
    if (raw.method.length === 0 || raw.method.length > MAX_METHOD)
      return fail('method name too long or empty');
    return id === undefined
      ? { ok: true, message: { kind: 'notification', method: raw.method, params } }
      : { ok: true, message: { kind: 'request', id, method: raw.method, params } };
  }
  if (raw.method !== undefined) return fail('method must be a string');
  if (id !== undefined && ('result' in raw || 'error' in raw))
    return { ok: true, message: { kind: 'response', id } };
  return fail('neither a request, a notification nor a response');
}

/** The `ui://` authority of a URI (`ui://chart/view.html` → `chart`). */
function authorityOf(uri: string | undefined): string | undefined {
  const match = uri === undefined ? null : /^ui:\/\/([^/]*)/.exec(uri);
  return match?.[1];
}

/**
 * Why the view of `viewUri` may not call `name` on its server (`tools` is what that server
 * lists now), or undefined when it may. Refused: a tool the server does not list (another
 * server's), one whose visibility lacks `"app"`, and an app-only tool of another app's
 * `ui://` authority (a gateway gives each backend its own; see the gateway's `apps.ts`).
 */
export function toolRefusal(name: unknown, tools: readonly Tool[], viewUri: string): string | undefined {
  if (typeof name !== 'string') return 'tools/call needs a tool name';
  const tool = tools.find((t) => t.name === name);
  if (!tool) return `tool '${name}' is not a tool of this app's server`;
  const ui = toolUiOf(tool);
  if (!ui.visibility.includes('app'))
    return `tool '${name}' is not visible to apps (visibility: ${ui.visibility.join(', ')})`;
  const own = authorityOf(viewUri);
  const theirs = authorityOf(ui.resourceUri);
  if (!ui.visibility.includes('model') && theirs !== undefined && theirs !== own)
    return `tool '${name}' belongs to the app of ui://${theirs}, not this one`;
  return undefined;
}
