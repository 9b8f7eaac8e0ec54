/**
 * One live connection of a client: the core Peer, the settled era, and the request pipeline
 * (modern `_meta`, version retry, `resultType`).
 * Source: 2026-07-28 basic/versioning "Protocol Version Negotiation", basic/index "_meta"
 * and "Result type", basic/patterns/mrtr; 2025-11-25 server/utilities/logging.
 */
import { ERROR_TABLE, McpError, McpkitError } from '../core/errors.js';
import type { JsonRpcNotification, Params } from '../core/jsonrpc.js';
import { Peer, type RequestOptions } from '../core/peer.js';
import { LATEST_LEGACY_REVISION, LATEST_REVISION, type Era } from '../core/revisions.js';
import type { Transport } from '../core/transport.js';
import type { Implementation } from '../core/types/index.js';
import { withModernMeta, type DeclaredCapabilities } from './capabilities.js';
import { establishEra, pickVersion, type EraContext, type ServerDescription } from './era.js';
import type { ClientOptions } from './options.js';
import { resultKind } from './results.js';
import { serverRequestHandler } from './server-requests.js';

/** What a connection needs from its client. */
export interface ConnectionSetup {
  options: ClientOptions;
  capabilities: DeclaredCapabilities;
  clientInfo: Implementation;
  onNotification(notification: JsonRpcNotification): void;
}

/** A started transport with its era settled. Create with {@link Connection.open}. */
export class Connection {
  readonly #peer: Peer;
  readonly #setup: ConnectionSetup;
  #server: ServerDescription | undefined;

  private constructor(transport: Transport, setup: ConnectionSetup) {
    const timeoutMs = setup.options.timeoutMs;
    this.#setup = setup;
    this.#peer = new Peer(
      transport,
      {
        request: serverRequestHandler(setup.options.handlers ?? {}, () => this.era),
        notification: (n) => setup.onNotification(n),
      },
      timeoutMs === undefined ? {} : { timeoutMs },
    );
  }

  /**
   * Starts `transport`, settles the era and, on a legacy server that declares `logging`,
   * applies the `logLevel` option. Closes the transport again on failure.
   * @throws as `establishEra`; McpError from `logging/setLevel`.
   */
  static async open(transport: Transport, setup: ConnectionSetup): Promise<Connection> {
    const connection = new Connection(transport, setup);
    await connection.#peer.start();
    try {
      await connection.#establish();
    } catch (error) {
      await connection.close();
      throw error;
    }
    return connection;
  }

  /** What is known of the server. */
  get server(): ServerDescription {
    return this.#server as ServerDescription;
  }

  /** The era, or undefined while it is being settled. */
  get era(): Era | undefined {
    return this.#server?.era;
  }

  /** Replaces what is known of the server (after `server/discover`). */
  set server(description: ServerDescription) {
    this.#server = description;
  }

  /** True once the transport has ended. */
  get isClosed(): boolean {
    return this.#peer.isClosed;
  }

  /** Sends a notification as is. */
  notify(method: string, params?: Params): void {
    this.#peer.notify(method, params);
  }

  /** Closes the transport; pending requests reject with McpkitError `CONNECTION_CLOSED`. */
  close(): Promise<void> {
    return this.#peer.close();
  }

  /**
   * The one place a request goes out and its result is read. Multi round-trip requests
   * (basic/patterns/mrtr) plug in at the `input_required` branch: answer `inputRequests`
   * with the handlers, then retry with `inputResponses` and `requestState`.
   * @throws McpkitError `INVALID_RESULT` for `input_required` (not supported yet) or an
   *   unknown `resultType`; McpError for a wire error; Peer's local errors.
   */
  async roundTrip(method: string, params: Params | undefined, options?: RequestOptions): Promise<Params> {
    const result = await this.#send(method, params, options);
    switch (resultKind(result, method)) {
      case 'complete':
        return result;
      case 'input_required':
        throw new McpkitError(
          'INVALID_RESULT',
          `${method}: the server answered input_required; multi round-trip requests are not supported yet`,
        );
    }
  }

  /** Sends one request; on modern, a -32022 naming a version we speak is retried once with it. */
  async #send(method: string, params: Params | undefined, options?: RequestOptions): Promise<Params> {
    const server = this.server;
    if (server.era === 'legacy') return this.#peer.request(method, params, options);
    try {
      return await this.#peer.request(method, this.#modernParams(server.protocolVersion, params), options);
    } catch (error) {
      const version = retryVersion(error, server.protocolVersion);
      if (version === undefined) throw error;
      server.protocolVersion = version;
      return this.#peer.request(method, this.#modernParams(version, params), options);
    }
  }

  #modernParams(version: string, params: Params | undefined): Params {
    return withModernMeta(params, {
      protocolVersion: version,
      capabilities: this.#setup.capabilities.modern,
      clientInfo: this.#setup.clientInfo,
      logLevel: this.#setup.options.logLevel,
    });
  }

  async #establish(): Promise<void> {
    const { eraCache, cacheKey, era = 'auto', logLevel } = this.#setup.options;
    const cached = cacheKey === undefined ? undefined : eraCache?.get(cacheKey);
    const server = await establishEra(this.#eraContext(), era, cached);
    this.#server = server;
    if (era === 'auto' && cacheKey !== undefined) eraCache?.set(cacheKey, server.era);
    if (logLevel !== undefined && server.era === 'legacy' && server.serverCapabilities?.logging) {
      await this.#peer.request('logging/setLevel', { level: logLevel });
    }
  }

  #eraContext(): EraContext {
    const { options, capabilities, clientInfo } = this.#setup;
    return {
      request: (method, params, requestOptions) => this.#peer.request(method, params, requestOptions),
      notify: (method, params) => this.#peer.notify(method, params),
      withModernMeta: (version, params) => this.#modernParams(version, params),
      preferredVersion: options.protocolVersion ?? LATEST_REVISION,
      legacyVersion: options.legacyProtocolVersion ?? LATEST_LEGACY_REVISION,
      legacyCapabilities: capabilities.legacy,
      clientInfo,
      probeTimeoutMs: options.probeTimeoutMs ?? 5000,
    };
  }
}

/** The version to retry with after a -32022, or undefined when there is none to try. */
function retryVersion(error: unknown, current: string): string | undefined {
  if (!(error instanceof McpError) || error.code !== ERROR_TABLE.UnsupportedProtocolVersion.code)
    return undefined;
  const supported = (error.data as { supported?: unknown } | undefined)?.supported;
  const version = pickVersion(current, Array.isArray(supported) ? supported : []);
  return version === current ? undefined : version;
}
