/**
 * Extensions the gateway does not know, relayed to the backend that offers them. The
 * front declares each extension that exactly one ready modern backend declares and that
 * the gateway has no handling of its own for (Tasks and UI have theirs), with that
 * backend's settings: `server/discover` on modern, `initialize` on legacy (a legacy session
 * keeps what it was told). A request for a method neither the core protocol nor the
 * gateway defines goes to the backend whose relayed extensions the request negotiated,
 * when that is exactly one backend; the request's own declaration of those extensions
 * travels with it, so the backend applies its negotiation rules as it would to a direct
 * client. Otherwise the method is unknown (-32601, as SEP-2133 "Graceful Degradation"
 * has a server answer a method of an extension the client did not negotiate), the message
 * saying why when the method cannot be routed.
 *
 * Capabilities name extensions, not their methods, so routing goes by negotiation: an
 * extension two backends declare is not relayed (its methods could reach either), and a
 * request that negotiates relayed extensions of two backends is refused.
 *
 * Legacy backends are left out: their session declared the host's own capabilities once,
 * so a relayed request could not carry the front client's negotiation.
 *
 * Notifications the backend sends on the relayed request's stream (Streamable HTTP tells
 * which request they belong to) go to that front request only, at most
 * {@link NOTIFY_PER_SECOND} a second (a burst of as many); more are dropped. A notification
 * not tied to a relayed request reaches no front client.
 * Source: SEP-2133 "Negotiation", "Graceful Degradation"; 2026-07-28 basic/index "_meta".
 */
import {
  WireError,
  META,
  TASKS_EXTENSION,
  type Middleware,
  type Params,
  type RequestId,
} from '../../core/index.js';
import { UI_EXTENSION } from '../../core/apps.js';
import { rateBudget } from '../../core/runtime.js';
import { relayRequest } from '../../client/runtime.js';
import type { RequestContext, ServerExtension } from '../../server/index.js';
import type { Host } from '../host.js';

/** Extensions the gateway handles itself. */
const KNOWN = new Set([TASKS_EXTENSION, UI_EXTENSION]);

/** The core protocol's notifications (progress travels as progress; the rest are no extension's). */
const CORE_NOTIFICATIONS =
  /^notifications\/(progress|message|cancelled|initialized|tasks|roots\/list_changed|(tools|prompts|resources)\/list_changed|resources\/updated|elicitation\/complete)$/;

/** Most notifications relayed per second to one front request (and the burst allowed). */
export const NOTIFY_PER_SECOND = 200;

/** The extensions of ready modern backends that the gateway does not know: id → servers and settings. */
function offered(host: Host): Map<string, { server: string; settings: unknown }[]> {
  const out = new Map<string, { server: string; settings: unknown }[]>();
  for (const server of host.servers) {
    const client = host.clientOf(server);
    if (client?.era !== 'modern') continue;
    for (const [id, settings] of Object.entries(client.serverCapabilities?.extensions ?? {})) {
      if (KNOWN.has(id)) continue;
      out.set(id, [...(out.get(id) ?? []), { server, settings }]);
    }
  }
  return out;
}

/** The gateway's capability middleware: adds the relayed extensions to `server/discover` and `initialize`. */
export function advertiseRelayed(host: Host): Middleware {
  return (next) => async (message, ctx) => {
    const result = await next(message, ctx);
    if (ctx.direction !== 'incoming' || message.kind !== 'request' || !result) return result;
    if (message.method !== 'server/discover' && message.method !== 'initialize') return result;
    const relayed = [...offered(host)].filter(([, servers]) => servers.length === 1);
    if (relayed.length === 0) return result;
    const capabilities = (result.capabilities ?? {}) as { extensions?: Record<string, unknown> };
    const extensions = { ...capabilities.extensions };
    for (const [id, [only]] of relayed) extensions[id] ??= only!.settings;
    return { ...result, capabilities: { ...capabilities, extensions } };
  };
}

/** The server extension that relays unknown methods (see the module comment). */
export function relayExtension(host: Host): ServerExtension {
  return {
    id: 'io.github.mcpkit/gateway-relay',
    settings: () => undefined,
    relay: (request, ctx) => relayUnknown(host, request, ctx),
  };
}

/** The backend a request for an unknown method goes to, or undefined (then it is unknown). */
function routeOf(
  host: Host,
  method: string,
  ctx: RequestContext,
): { server: string; ids: string[] } | undefined {
  const asked = Object.keys(ctx.clientCapabilities.extensions ?? {});
  const all = offered(host);
  const shared = asked.filter((id) => (all.get(id)?.length ?? 0) > 1);
  const routes = new Map<string, string[]>();
  for (const id of asked) {
    const servers = all.get(id);
    if (servers?.length === 1)
      routes.set(servers[0]!.server, [...(routes.get(servers[0]!.server) ?? []), id]);
  }
  if (routes.size === 1) {
    const [[server, ids]] = [...routes] as [[string, string[]]];
    return { server, ids };
  }
  if (routes.size > 1)
    throw unroutable(
      method,
      `the request negotiates extensions of several servers (${[...routes.keys()].join(', ')})`,
    );
  if (shared.length > 0)
    throw unroutable(
      method,
      `${shared.join(', ')} is declared by several servers: the gateway does not relay it`,
    );
  return undefined;
}

function unroutable(method: string, why: string): WireError {
  return WireError.of('MethodNotFound', `Method not found: ${method} (${why})`);
}

function relayUnknown(
  host: Host,
  request: { method: string; params: Params },
  ctx: RequestContext,
): Promise<Params> | undefined {
  const route = routeOf(host, request.method, ctx);
  const client = route && host.clientOf(route.server);
  if (!route || !client) return undefined;
  const declared = ctx.clientCapabilities.extensions as Record<string, object>;
  const extensions = Object.fromEntries(route.ids.map((id) => [id, declared[id]]));
  const ids = new Set<RequestId>();
  const take = rateBudget(NOTIFY_PER_SECOND);
  const off = host.on('notification', ({ server, notification, relatedRequestId }) => {
    if (server !== route.server || relatedRequestId === undefined || !ids.has(relatedRequestId)) return;
    if (CORE_NOTIFICATIONS.test(notification.method) || !take()) return;
    ctx.notify(notification.method, notification.params ?? {});
  });
  return relayRequest(
    client,
    { method: request.method, params: withoutProtocolMeta(request.params) },
    {
      signal: ctx.signal,
      relayInputRequired: true,
      clientCapabilities: { extensions } as never,
      onRequestId: (id) => void ids.add(id),
      onprogress: (u) => ctx.progress(u.progress, u.total === undefined ? {} : { total: u.total }),
    },
  )
    .then((result) => {
      // A modern caller answers and retries through the gateway; a legacy one cannot.
      if (ctx.era === 'legacy' && result.resultType === 'input_required')
        throw WireError.of(
          'InternalError',
          `server '${route.server}' asked for input, which the gateway does not bridge for ${request.method}`,
        );
      return result;
    })
    .catch((error: unknown) => {
      if (error instanceof WireError) throw error;
      throw WireError.of('InternalError', `server '${route.server}': ${(error as Error).message}`);
    })
    .finally(off);
}

/** `params` without the per-request protocol fields of the front request (the backend request gets its own). */
function withoutProtocolMeta(params: Params): Params {
  const { _meta, ...rest } = params;
  if (typeof _meta !== 'object' || _meta === null) return rest;
  const own = Object.entries(_meta).filter(
    ([key]) =>
      key !== 'progressToken' &&
      key !== META.protocolVersion &&
      key !== META.clientCapabilities &&
      key !== META.clientInfo &&
      key !== META.logLevel,
  );
  return own.length === 0 ? rest : { ...rest, _meta: Object.fromEntries(own) };
}
