/**
 * The legacy (2025-11-25 and earlier) methods that exist only inside a session:
 * `initialize`, `ping`, `logging/setLevel`, `resources/subscribe` / `unsubscribe`.
 * Source: 2025-11-25 basic/lifecycle, basic/utilities/ping, server/utilities/logging,
 * server/resources "Subscriptions".
 */
import {
  WireError,
  type Params,
  LOGGING_LEVELS,
  type LegacyRevision,
  type Implementation,
  type LoggingLevel,
  type ServerCapabilities,
} from '../../core/index.js';
import { isObject, negotiateLegacyRevision } from '../../core/runtime.js';
import { legacyClientCapabilities, legacyServerCapabilities } from './projection.js';
import { openSession, type RequestScope } from '../scope.js';
import type { LegacySession } from './session.js';
import type { ResourceSubscriptions } from '../subscriptions.js';

/** What the server tells a client in its `initialize` result. */
export interface ServerIdentity {
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  instructions: string | undefined;
  legacyRevisions: readonly LegacyRevision[];
  /** The extensions served on legacy and their settings (declared when any). */
  extensions?: ServerCapabilities['extensions'] | undefined;
  /** Called with the session once opened (before the result is sent). */
  opened?: (session: LegacySession) => void;
}

/**
 * Answers `initialize`: negotiates the revision and opens the session.
 * @throws WireError -32602 for missing fields; -32600 when the channel already has a
 *   session or cannot open one.
 */
export function initialize(
  params: Params | undefined,
  scope: RequestScope,
  identity: ServerIdentity,
): Params {
  if (!params || typeof params.protocolVersion !== 'string') {
    throw WireError.of('InvalidParams', 'initialize needs a protocolVersion string');
  }
  if (params.capabilities !== undefined && !isObject(params.capabilities)) {
    throw WireError.of('InvalidParams', 'capabilities must be an object');
  }
  const protocolVersion = negotiateLegacyRevision(params.protocolVersion, identity.legacyRevisions);
  const session = openSession(scope, {
    protocolVersion,
    clientInfo: isObject(params.clientInfo) ? (params.clientInfo as unknown as Implementation) : undefined,
    clientCapabilities: legacyClientCapabilities(params.capabilities),
  });
  const capabilities = legacyServerCapabilities(identity.capabilities);
  if (identity.extensions) capabilities.extensions = identity.extensions;
  session.serverCapabilities = capabilities;
  session.auth = scope.auth;
  identity.opened?.(session);
  const result: Params = { protocolVersion, capabilities, serverInfo: identity.serverInfo };
  if (identity.instructions !== undefined) result.instructions = identity.instructions;
  return result;
}

/** Default of `limits.maxResourceSubscriptions`, as for a modern listen request. */
const MAX_SUBSCRIPTIONS = 1000;

/** What the session-only methods need from their server. */
export interface SessionMethodDeps {
  /** Bounds a session's resource subscriptions like one modern listen request's (default 1 000). */
  maxSubscriptions: number | undefined;
  subscriptions: ResourceSubscriptions;
}

/** Session-only methods by name. */
export const SESSION_METHODS: Record<
  string,
  (session: LegacySession, params: Params, deps: SessionMethodDeps) => Params | Promise<Params>
> = {
  ping: () => ({}),
  'logging/setLevel': (session, params) => {
    if (!(LOGGING_LEVELS as readonly unknown[]).includes(params.level)) {
      throw WireError.of('InvalidParams', `level must be one of ${LOGGING_LEVELS.join(', ')}`);
    }
    session.logLevel = params.level as LoggingLevel;
    return {};
  },
  'resources/subscribe': async (session, params, deps) => {
    const uri = requireUri(params);
    // Another spelling of a held resource is the same subscription (resource-uri.ts).
    if (session.subscriptions.spellingOf(uri) !== undefined) return {};
    const max = deps.maxSubscriptions ?? MAX_SUBSCRIPTIONS;
    if (session.subscriptions.size >= max) {
      throw WireError.of(
        'InvalidParams',
        `more than ${max} resourceSubscriptions (limits.maxResourceSubscriptions)`,
      );
    }
    // Held while the hook runs, so a second subscribe of the same URI does not count twice.
    session.subscriptions.add(uri);
    let accepted = false;
    try {
      accepted = await deps.subscriptions.acquire(uri);
    } catch (error) {
      session.subscriptions.delete(uri);
      throw error instanceof WireError
        ? error
        : WireError.of(
            'InvalidParams',
            `cannot subscribe to ${uri}: ${String((error as Error)?.message ?? error)}`,
          );
    }
    if (!accepted) {
      session.subscriptions.delete(uri);
      throw WireError.of('InvalidParams', `the server does not offer updates of ${uri}`);
    }
    return {};
  },
  'resources/unsubscribe': (session, params, deps) => {
    const held = session.subscriptions.delete(requireUri(params));
    if (held !== undefined) deps.subscriptions.release(held);
    return {};
  },
};

function requireUri(params: Params): string {
  if (typeof params.uri !== 'string') throw WireError.of('InvalidParams', 'uri must be a string');
  return params.uri;
}
