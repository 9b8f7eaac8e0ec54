/**
 * The endpoint's `Host`/`Origin` policy, decided here once for every way it is served
 * (`createHttpHandler`, `mcpkit/node`'s `serve()` and `toNodeListener()`, the framework
 * adapters), so the same request gets the same answer whichever way it arrives.
 * Source: 2026-07-28 basic/transports/streamable-http "Security & Endpoint".
 */
import { LOOPBACK_HOSTS, isLoopbackHost } from '../../core/runtime.js';
import type { OriginPolicy } from './security.js';

/** {@link OriginPolicy} and where the server listens, which picks the defaults. */
export interface HostPolicyOptions extends OriginPolicy {
  /**
   * The address the server listens on (`serve()` passes its `host`); default loopback.
   * On a loopback address only loopback `Host` and `Origin` names are accepted by default;
   * on any other, any `Host` is, and an `Origin`, when sent, must be the request's own.
   * `allowedHosts`/`allowedOrigins` override either default.
   */
  bindAddress?: string;
}

/** The policy the endpoint checks: the options' lists (copied), else the bind address's defaults. */
export function hostPolicy(options: HostPolicyOptions): OriginPolicy {
  const local = options.bindAddress === undefined || isLoopbackHost(options.bindAddress);
  return {
    allowedHosts: copied(options.allowedHosts ?? (local ? LOOPBACK_HOSTS : false)),
    allowedOrigins: copied(options.allowedOrigins ?? (local ? LOOPBACK_HOSTS : 'same-origin')),
  };
}

// A copy: the per-request checks remember their last verdict by the list's identity.
function copied<T>(list: readonly string[] | T): readonly string[] | T {
  return Array.isArray(list) ? [...(list as readonly string[])] : list;
}
