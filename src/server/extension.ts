/**
 * The server side of the extension seam: {@link defineExtension} describes an extension
 * once (identifier, settings, the methods it adds, the `_meta` it contributes to results,
 * what it adds to a listen stream), and `createServer({ extensions })` or
 * `server.use(extension)` serves it. The server declares the extension in
 * `capabilities.extensions`, routes its methods, and answers a method the client did not
 * negotiate (per request on modern, per session on legacy) with -32601, as for an unknown
 * method, unless the extension names its own error.
 * Each extension has a maturity stage (SEP-3392), kept in its definition and never sent.
 * Source: SEP-2133 "Negotiation", "Graceful Degradation"; SEP-3392 "Extension Lifecycle";
 * 2026-07-28 basic/index "_meta".
 */
import {
  LocalError,
  WireError,
  extensionSettings,
  type Era,
  type ExtensionStage,
  type Params,
} from '../core/index.js';
import { extensionDefinitionProblem } from '../core/runtime.js';
import type { RequestContext } from './context.js';
import type { Transform } from './catalogue/types.js';
import type { ResourceHandler, ResourceMetadata, TemplateHandler, TemplateOptions } from './resources.js';

/**
 * The registrations an extension's `setup` may make on the server that serves it: what it
 * serves through core features, and catalogue transforms — `visibleTo` among them, which
 * filters the core lists (`tools/list`…) per caller, on both eras, and answers a call of an
 * entry the caller may not see as for an unknown name.
 */
export interface ExtensionServer {
  resource(uri: string, metadata: ResourceMetadata, handler: ResourceHandler): unknown;
  resourceTemplate(uriTemplate: string, options: TemplateOptions, handler: TemplateHandler): unknown;
  transform(...transforms: Transform[]): unknown;
}

/** One method an extension adds: the request's params (as sent: check them) and context in, its result out. */
export type ExtensionHandler<P extends object = Params, R extends object = Params> = (
  params: P,
  ctx: RequestContext,
) => R | Promise<R>;

/** A request as an extension hook sees it: method and params as sent. */
export interface ExtensionRequest {
  readonly method: string;
  readonly params: Params;
}

/** What an extension carries on a `subscriptions/listen` stream it takes part in. */
export interface ListenContribution {
  /** The filter key and value acknowledged to the client (e.g. `taskIds`). */
  readonly key: string;
  readonly value: unknown;
  /** Starts sending; `notify` sends one notification on the stream. Returns the stop function. */
  watch(notify: (method: string, params: Params) => void): () => void;
}

/** An extension served by a server; build it with {@link defineExtension}. */
export interface ServerExtension<
  S extends object = Params,
  M extends Readonly<Record<string, ExtensionHandler<never, object>>> = Readonly<
    Record<string, ExtensionHandler<never, object>>
  >,
> {
  /** The identifier, `{vendor-prefix}/{name}` (e.g. `io.modelcontextprotocol/skills`). */
  readonly id: string;
  /**
   * Its maturity stage (SEP-3392): `'experimental'`, `'beta'` or `'stable'`. Defaults to
   * `'experimental'`, where every extension starts; {@link defineExtension} fills it in.
   * Documentation only: the stage is not part of `capabilities.extensions` (SEP-3392
   * leaves negotiation unchanged).
   */
  readonly stage?: ExtensionStage;
  /**
   * The settings declared in `capabilities.extensions[id]` (`{}` when omitted), or a
   * function read each time capabilities are computed; undefined from it means the
   * extension is not offered now (its methods are then unknown).
   */
  readonly settings?: S | (() => S | undefined);
  /**
   * Called once when a server takes the extension (`createServer({ extensions })` or
   * `use()`), to register what it serves through core features (resources, for instance).
   */
  readonly setup?: (server: ExtensionServer) => void;
  /** The methods it adds, by name. A core method name is refused. */
  readonly methods?: M;
  /** Methods whose modern results carry the cache fields (`ttlMs`, `cacheScope`). */
  readonly cacheable?: readonly string[];
  /** The eras it is served on (default both). Elsewhere its methods are unknown. */
  readonly eras?: readonly Era[];
  /** Whether its methods need the client's declaration (default true). */
  readonly requiresNegotiation?: boolean;
  /** The error for a method the client did not negotiate (default -32601 Method not found). */
  readonly notNegotiated?: (method: string, ctx: RequestContext) => WireError;
  /**
   * Runs before the server answers a core method (any era): a promise of the result takes
   * the request over, undefined leaves it to the server. Called whether or not the client
   * negotiated the extension (graceful degradation is the extension's own rule).
   */
  readonly intercept?: (request: ExtensionRequest, ctx: RequestContext) => Promise<Params> | undefined;
  /**
   * Takes a request for a method that neither the core protocol nor any extension defines
   * (any era), which the server would otherwise answer with -32601: a promise of the
   * result takes it, undefined leaves it unknown. For a proxy that relays extensions it
   * does not know itself (the gateway). Runs on the extension's eras even when its
   * settings are undefined (a relay declares nothing of its own).
   */
  readonly relay?: (request: ExtensionRequest, ctx: RequestContext) => Promise<Params> | undefined;
  /** `_meta` entries added to each result of a client that negotiated the extension. */
  readonly resultMeta?: (method: string, result: Params, ctx: RequestContext) => Params | undefined;
  /**
   * What a modern `subscriptions/listen` request's `notifications` filter asks of this
   * extension; undefined when nothing. Throw WireError to refuse the listen.
   */
  readonly listen?: (filter: Params, ctx: RequestContext) => ListenContribution | undefined;
}

/**
 * The params/result map of an extension's methods, to merge into `ExtensionRequestMap`
 * so `client.request(method)` is typed: `interface ExtensionRequestMap extends
 * MethodsOf<typeof myExtension> {}` inside `declare module 'mcpkit'`.
 */
export type MethodsOf<E> =
  E extends ServerExtension<object, infer M>
    ? {
        [K in keyof M]: {
          params: Parameters<M[K]>[0];
          result: Awaited<ReturnType<M[K]>>;
        };
      }
    : never;

/**
 * Checks and freezes an extension definition; its method types are kept for {@link MethodsOf}.
 * The result always has a `stage` (`'experimental'` when the definition has none).
 * @throws LocalError `INVALID_DEFINITION` for a malformed identifier, a method name the
 *   core protocol defines, or a stage other than `'experimental'`, `'beta'`, `'stable'`.
 */
export function defineExtension<
  const M extends Readonly<Record<string, ExtensionHandler<never, object>>>,
  S extends object = Params,
>(definition: ServerExtension<S, M>): ServerExtension<S, M> {
  const methods = Object.keys(definition.methods ?? {});
  const problem = extensionDefinitionProblem(definition.id, methods, definition.stage);
  if (problem) throw new LocalError('INVALID_DEFINITION', problem);
  return Object.freeze({ ...definition, stage: definition.stage ?? 'experimental' });
}

/**
 * The settings the client declared for `extension` in this request's capabilities (the
 * request's `_meta` on modern, the session's `initialize` on legacy), or undefined when
 * it did not negotiate it. Read it per request: two clients, or two requests, differ.
 */
export function negotiated(
  ctx: Pick<RequestContext, 'clientCapabilities'>,
  extension: { id: string } | string,
): Params | undefined {
  return extensionSettings(ctx.clientCapabilities, typeof extension === 'string' ? extension : extension.id);
}

/** The settings `extension` declares now, or undefined when not offered. */
export function settingsOf(extension: ServerExtension<object>): object | undefined {
  const s = extension.settings;
  return typeof s === 'function' ? s() : (s ?? {});
}

/** The method-not-found answer for an extension method the client did not negotiate. */
export function notNegotiatedError(
  extension: ServerExtension<object>,
  method: string,
  ctx: RequestContext,
): WireError {
  return (
    extension.notNegotiated?.(method, ctx) ?? WireError.of('MethodNotFound', `Method not found: ${method}`)
  );
}
