/**
 * Result types by method name, for both eras, so callers never write type arguments.
 * Source: 2026-07-28 and 2025-11-25 schemas, ClientRequest.
 */
import type { Params, ClientRequestMap, ExtensionRequestMap, LegacyClientRequestMap } from '../core/index.js';

/** A method both eras define (e.g. `tools/call`). */
export type SharedMethod = keyof ClientRequestMap & keyof LegacyClientRequestMap;

/**
 * The result of method `M` as either era shapes it: modern results carry `resultType` and
 * caching hints, legacy ones do not.
 */
export type ResultOf<M extends SharedMethod> =
  ClientRequestMap[M]['result'] | LegacyClientRequestMap[M]['result'];

/**
 * The result of any method: typed for methods mcpkit knows and for extension methods
 * merged into `ExtensionRequestMap`, a plain object otherwise.
 */
export type ResultFor<M extends string> = M extends keyof ExtensionRequestMap
  ? ExtensionRequestMap[M] extends { result: infer R }
    ? R
    : Params
  : M extends keyof ClientRequestMap | keyof LegacyClientRequestMap
    ? | (M extends keyof ClientRequestMap ? ClientRequestMap[M]['result'] : never)
      | (M extends keyof LegacyClientRequestMap ? LegacyClientRequestMap[M]['result'] : never)
    : Params;

/** The params of an extension method merged into `ExtensionRequestMap`; a plain object for any other. */
export type ParamsFor<M extends string> = M extends keyof ExtensionRequestMap
  ? ExtensionRequestMap[M] extends { params: infer P }
    ? P & Params
    : Params
  : Params;
