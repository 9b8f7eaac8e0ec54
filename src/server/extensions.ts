/**
 * The extensions one server serves: their methods by name, the capabilities they declare,
 * and the hooks dispatch calls (interception of core methods, result `_meta`, listen
 * streams). Built once per server; `use()` adds more before serving.
 * Source: SEP-2133 "Negotiation"; 2026-07-28 basic/index "_meta".
 */
import { LocalError, WireError, type Era, type Params, type ServerCapabilities } from '../core/index.js';
import { isCoreMethod } from '../core/runtime.js';
import type { RequestContext } from './context.js';
import { requestOf, type RequestScope } from './scope.js';
import {
  negotiated,
  notNegotiatedError,
  settingsOf,
  type ExtensionHandler,
  type ListenContribution,
  type ServerExtension,
} from './extension.js';

type AnyExtension = ServerExtension<object>;

interface Entry {
  readonly extension: AnyExtension;
  readonly handler: ExtensionHandler<Params, object>;
}

/** The extensions of one server; see the module comment. */
export class ServerExtensions {
  readonly #list: AnyExtension[] = [];
  readonly #methods = new Map<string, Entry>();
  readonly #cacheable = new Set<string>();

  /**
   * Adds an extension.
   * @throws LocalError `INVALID_DEFINITION` when its id or one of its methods is taken.
   */
  add(extension: AnyExtension): void {
    if (this.#list.some((e) => e.id === extension.id))
      throw new LocalError('INVALID_DEFINITION', `extension '${extension.id}' is already served`);
    const methods = Object.entries(
      (extension.methods ?? {}) as Record<string, ExtensionHandler<Params, object>>,
    );
    for (const [method] of methods)
      if (this.#methods.has(method))
        throw new LocalError('INVALID_DEFINITION', `extension method '${method}' is already served`);
    this.#list.push(extension);
    for (const [method, handler] of methods) this.#methods.set(method, { extension, handler });
    for (const method of extension.cacheable ?? []) this.#cacheable.add(method);
  }

  /** True when some extension contributes result `_meta` (else results are left alone). */
  get decorating(): boolean {
    return this.#list.some((e) => e.resultMeta !== undefined);
  }

  /** True when `method` belongs to an extension offered now on `era`. */
  handles(method: string, era: Era): boolean {
    const entry = this.#methods.get(method);
    return entry !== undefined && offered(entry.extension, era);
  }

  /** True when the modern result of `method` carries the cache fields. */
  cacheable(method: string): boolean {
    return this.#cacheable.has(method);
  }

  /**
   * Answers an extension method (the caller checked {@link handles}).
   * @throws WireError the extension's not-negotiated error (default -32601) when the
   *   client did not declare the extension; whatever the handler throws.
   */
  async call(ctx: RequestScope): Promise<Params> {
    const { method, params = {} } = requestOf(ctx);
    const { extension, handler } = this.#methods.get(method)!;
    if (extension.requiresNegotiation !== false && !negotiated(ctx, extension))
      throw notNegotiatedError(extension, method, ctx);
    return this.decorate(method, { ...(await handler(params, ctx)) } as Params, ctx);
  }

  /** True when some extension may relay `method` on `era` (not a core or extension method). */
  relays(method: string, era: Era): boolean {
    if (isCoreMethod(method) || this.#methods.has(method)) return false;
    return this.#list.some((e) => e.relay !== undefined && (e.eras?.includes(era) ?? true));
  }

  /**
   * The first relay's result for an unknown method (the caller checked {@link relays}).
   * @throws WireError -32601 when no relay takes it; whatever the relay throws.
   */
  relay(ctx: RequestScope): Promise<Params> {
    const request = { method: requestOf(ctx).method, params: requestOf(ctx).params ?? {} };
    for (const extension of this.#list) {
      if (!extension.relay || !(extension.eras?.includes(ctx.era) ?? true)) continue;
      const taken = extension.relay(request, ctx);
      if (taken) return taken;
    }
    return Promise.reject(WireError.of('MethodNotFound', `Method not found: ${request.method}`));
  }

  /** The first extension's takeover of a core method, or undefined (see `ServerExtension.intercept`). */
  intercept(ctx: RequestScope): Promise<Params> | undefined {
    const request = { method: requestOf(ctx).method, params: requestOf(ctx).params ?? {} };
    for (const extension of this.#list) {
      if (!extension.intercept || !offered(extension, ctx.era)) continue;
      const taken = extension.intercept(request, ctx);
      if (taken) return taken;
    }
    return undefined;
  }

  /** `result` with the `_meta` of each negotiated extension that contributes some. */
  decorate(method: string, result: Params, ctx: RequestContext): Params {
    for (const extension of this.#list) {
      if (!extension.resultMeta || !offered(extension, ctx.era) || !negotiated(ctx, extension)) continue;
      const meta = extension.resultMeta(method, result, ctx);
      if (meta) result._meta = { ...(result._meta as Params | undefined), ...meta };
    }
    return result;
  }

  /** What the extensions add to a modern listen stream asking `filter`. */
  listen(filter: unknown, ctx: RequestContext): ListenContribution[] {
    const asked = typeof filter === 'object' && filter !== null ? (filter as Params) : {};
    const out: ListenContribution[] = [];
    for (const extension of this.#list) {
      if (!extension.listen || !offered(extension, 'modern')) continue;
      const contribution = extension.listen(asked, ctx);
      if (contribution) out.push(contribution);
    }
    return out;
  }

  /** The settings of each extension offered on `era`, or undefined when none is. */
  declared(era: Era): ServerCapabilities['extensions'] | undefined {
    let out: Record<string, never> | undefined;
    for (const extension of this.#list)
      if (offered(extension, era)) (out ??= {})[extension.id] = settingsOf(extension) as never;
    return out;
  }

  /** `caps` with each offered extension's settings under `extensions` (as discover states them). */
  declare(caps: ServerCapabilities): ServerCapabilities {
    for (const extension of this.#list) {
      const settings = settingsOf(extension);
      if (settings !== undefined) caps.extensions = { ...caps.extensions, [extension.id]: settings as never };
    }
    return caps;
  }
}

function offered(extension: AnyExtension, era: Era): boolean {
  return (extension.eras?.includes(era) ?? true) && settingsOf(extension) !== undefined;
}
