/**
 * `createWorker`: a server definition as a Cloudflare Worker (`export default { fetch }`),
 * with no `nodejs_compat`. The modern era is served statelessly in whichever isolate gets
 * the request; background work (task handlers) is handed to `ctx.waitUntil`. Legacy sessions
 * go to a Durable Object each ({@link sessionObject}), so every request of a session reaches
 * the one object that holds it, whichever isolate received it.
 * Source: 2026-07-28 basic/transports/streamable-http; 2025-11-25 basic/transports "Session Management".
 */
import { ERROR_TABLE, type ErrorName } from '../../core/index.js';
import { SERVER_CARD_WELL_KNOWN_PATH } from '../../core/server-card.js';
import { errorResponse } from '../../core/runtime.js';
import { runtimeOf } from '../../server/runtime.js';
import type { McpServer } from '../../server/index.js';
import { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from '../../server/http/index.js';
import { DEFAULT_MAX_BODY_BYTES, readBody } from '../../server/http/runtime.js';
import type { DurableObjectNamespace, ExecutionContext } from './types.js';

/**
 * A server definition, or a function that makes it from the Worker's env on first use (after
 * module load, so bindings such as a task store's namespace can be read).
 */
export type ServerSource = McpServer | ((env: WorkerEnv) => McpServer);

/** The Worker's environment: its bindings by name (wrangler's `vars`, Durable Objects, KV). */
export type WorkerEnv = Record<string, unknown>;

/** Options of {@link createWorker}: the endpoint's, plus where it lives and its sessions. */
export interface WorkerOptions extends HttpHandlerOptions {
  /**
   * The MCP endpoint's path (default `/mcp`); any other path gets 404 (but, with
   * `serverCard`, `<path>/server-card` and `/.well-known/mcp/server-card.json`).
   */
  path?: string;
  /**
   * The name of the Durable Object namespace binding whose class is {@link sessionObject}'s:
   * each legacy session (`initialize`, then its `Mcp-Session-Id`) lives in an object of its
   * own. Without it legacy sessions live in the isolate's memory, which holds only while one
   * isolate serves every request (`wrangler dev`).
   */
  sessions?: string;
}

/** A Worker's module export: `export default createWorker(server)`. */
export interface McpWorker {
  fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response>;
}

/** The server of `source`, made once (a factory runs on first use, not at module load). */
export function serverOf(source: ServerSource): (env: WorkerEnv) => McpServer {
  let server: McpServer | undefined;
  return (env) => (server ??= typeof source === 'function' ? source(env) : source);
}

/** A JSON-RPC error as a web Response with the table's HTTP status. */
export function errorAnswer(name: ErrorName, message: string): Response {
  const { code, httpStatus } = ERROR_TABLE[name];
  return Response.json(errorResponse(undefined, { code, message }), { status: httpStatus });
}

/**
 * Builds the Worker of `server` (a definition, or a factory run on the first request).
 * `options` may be a function of the Worker's env (e.g. hosts from `vars`); it is read once.
 * Host/Origin: a Worker is served on a public name, so by default any `Host` is accepted and
 * an `Origin`, when sent, must be the request's own (set `allowedHosts`/`allowedOrigins`).
 * Nothing is built at module load: workerd refuses timers and random values in global scope.
 */
export function createWorker(
  server: ServerSource,
  options: WorkerOptions | ((env: WorkerEnv) => WorkerOptions) = {},
): McpWorker {
  const definition = serverOf(server);
  let built: { handler: HttpHandler; options: WorkerOptions } | undefined;
  const build = (env: WorkerEnv) => {
    const chosen = typeof options === 'function' ? options(env) : options;
    const card = chosen.serverCard;
    const serverCard =
      card === undefined
        ? {}
        : { serverCard: { endpointPath: chosen.path ?? '/mcp', ...(card === true ? {} : card) } };
    const handler = createHttpHandler(definition(env), { bindAddress: '0.0.0.0', ...chosen, ...serverCard });
    return { handler, options: chosen };
  };
  return {
    async fetch(request, env, ctx) {
      built ??= build(env);
      if (!servesPath(built.options, new URL(request.url).pathname))
        return new Response('Not Found', { status: 404 });
      const namespace = built.options.sessions ? env[built.options.sessions] : undefined;
      const routed = namespace
        ? await toSession(namespace as DurableObjectNamespace, request, built.options)
        : request;
      if (routed instanceof Response) return routed;
      const response = await built.handler(routed, { remoteAddress: clientAddress(request) });
      ctx.waitUntil(settled(definition(env)));
      return response;
    },
  };
}

/**
 * The endpoint's path, the paths its `auth` guard answers (metadata; a façade's OAuth
 * endpoints), and both card locations when the Worker serves a card.
 */
function servesPath(options: WorkerOptions, pathname: string): boolean {
  const path = options.path ?? '/mcp';
  if (pathname === path || options.auth?.paths.includes(pathname)) return true;
  return (
    options.serverCard !== undefined &&
    (pathname === `${path}/server-card` || pathname === SERVER_CARD_WELL_KNOWN_PATH)
  );
}

/** How often a waiting invocation wakes while background work runs (see {@link settled}). */
const WAKE_MS = 1000;

/**
 * Resolves once the server's background work is done. It wakes every second meanwhile:
 * workerd cancels an invocation that waits only on promises its own I/O cannot settle (a
 * task waiting for answers that another request brings), taking it for hung.
 */
async function settled(server: McpServer): Promise<void> {
  let done = false;
  const idle = runtimeOf(server)
    .idle()
    .finally(() => (done = true));
  while (!done) await Promise.race([idle, new Promise((wake) => setTimeout(wake, WAKE_MS))]);
}

/** The caller's address as Cloudflare's edge reports it. */
export function clientAddress(request: Request): string | undefined {
  return request.headers.get('cf-connecting-ip') ?? undefined;
}

/**
 * Sends a legacy session's request to its Durable Object: one naming an `Mcp-Session-Id`
 * (`<object id>.<session id>`, unknown → 404), or an `initialize` (to a new object). Any
 * other request comes back (its body read again) for this isolate's handler.
 */
async function toSession(
  namespace: DurableObjectNamespace,
  request: Request,
  options: WorkerOptions,
): Promise<Request | Response> {
  const session = request.headers.get('mcp-session-id');
  if (session !== null) {
    const object = objectOf(namespace, session);
    return object
      ? namespace.get(object).fetch(request)
      : errorAnswer('SessionNotFound', 'Session not found');
  }
  if (request.method !== 'POST') return request;
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const body = await readBody(request, maxBytes);
  if (body.kind === 'too-large')
    return errorAnswer('PayloadTooLarge', `Payload Too Large: the limit is ${maxBytes} bytes`);
  const again = new Request(request, { body: body.text });
  return isInitialize(body.text) ? namespace.get(namespace.newUniqueId()).fetch(again) : again;
}

function objectOf(namespace: DurableObjectNamespace, session: string) {
  const dot = session.indexOf('.');
  try {
    return dot > 0 ? namespace.idFromString(session.slice(0, dot)) : undefined;
  } catch {
    return undefined; // not an id of this namespace: no such session
  }
}

function isInitialize(text: string): boolean {
  try {
    const message = JSON.parse(text) as { method?: unknown } | null;
    return typeof message === 'object' && message !== null && message.method === 'initialize';
  } catch {
    return false;
  }
}
