/**
 * The requests the checker sends, built per era: modern requests carry the protocol
 * version, client identity and capabilities in `_meta` (2026-07-28 basic/index "_meta");
 * legacy ones rely on the session `initialize` opened.
 */
import { LATEST_LEGACY_REVISION, LATEST_REVISION, META, type Era } from '../core/index.js';
import type { Json } from './observations.js';

/** The checker's identity on the wire. */
const CHECKER_INFO = { name: 'mcpkit-check', version: '1' } as const;

/** A version no server speaks, for the unknown-version probe. */
export const UNKNOWN_VERSION = '1999-01-01';

/** A tool and a method no server has, for the probes. */
export const NO_SUCH_TOOL = 'mcpkit-check-no-such-tool';
export const NO_SUCH_METHOD = 'mcpkit-check/no-such-method';

/** Builds requests for one era with fresh ids. */
export class RequestMaker {
  readonly era: Era;
  #next = 0;
  readonly #prefix: string;

  constructor(era: Era) {
    this.era = era;
    this.#prefix = `check-${era}-`;
  }

  /** A request for `method`; modern ones get the `_meta` of `version` (default the latest). */
  make(method: string, params: Json = {}, version: string = LATEST_REVISION): Json {
    const id = `${this.#prefix}${++this.#next}`;
    if (this.era === 'legacy') return { jsonrpc: '2.0', id, method, params };
    const meta = {
      [META.protocolVersion]: version,
      [META.clientInfo]: CHECKER_INFO,
      [META.clientCapabilities]: {},
    };
    const own = (params._meta ?? {}) as Json;
    return { jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...own, ...meta } } };
  }

  /** The legacy `initialize` request, offering `version`. */
  initialize(version: string = LATEST_LEGACY_REVISION): Json {
    const id = `${this.#prefix}${++this.#next}`;
    const params = { protocolVersion: version, capabilities: {}, clientInfo: CHECKER_INFO };
    return { jsonrpc: '2.0', id, method: 'initialize', params };
  }
}

/** The `notifications/initialized` that completes a legacy handshake. */
export const INITIALIZED: Json = { jsonrpc: '2.0', method: 'notifications/initialized' };
