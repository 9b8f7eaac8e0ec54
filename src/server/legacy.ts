/**
 * The legacy (2025-11-25 and earlier) methods that exist only inside a session:
 * `initialize`, `ping`, `logging/setLevel`, `resources/subscribe` / `unsubscribe`.
 * Source: 2025-11-25 basic/lifecycle, basic/utilities/ping, server/utilities/logging,
 * server/resources "Subscriptions".
 */
import { McpError } from '../core/errors.js';
import type { Params } from '../core/jsonrpc.js';
import { isObject } from '../core/jsonrpc.js';
import { LOGGING_LEVELS, negotiateLegacyRevision, type LegacyRevision } from '../core/revisions.js';
import type {
  ClientCapabilities,
  Implementation,
  LoggingLevel,
  ServerCapabilities,
} from '../core/types/index.js';
import type { RequestChannel } from './channel.js';
import type { LegacySession } from './session.js';

/** What the server tells a client in its `initialize` result. */
export interface ServerIdentity {
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  instructions: string | undefined;
  legacyRevisions: readonly LegacyRevision[];
}

/**
 * Answers `initialize`: negotiates the revision and opens the session.
 * @throws McpError -32602 for missing fields; -32600 when the channel already has a
 *   session or cannot open one.
 */
export function initialize(
  params: Params | undefined,
  channel: RequestChannel,
  identity: ServerIdentity,
): Params {
  if (!params || typeof params.protocolVersion !== 'string') {
    throw McpError.of('InvalidParams', 'initialize needs a protocolVersion string');
  }
  if (params.capabilities !== undefined && !isObject(params.capabilities)) {
    throw McpError.of('InvalidParams', 'capabilities must be an object');
  }
  if (channel.session || !channel.openSession)
    throw McpError.of('InvalidRequest', 'This connection is already initialized');
  const protocolVersion = negotiateLegacyRevision(params.protocolVersion, identity.legacyRevisions);
  channel.openSession({
    protocolVersion,
    clientInfo: isObject(params.clientInfo) ? (params.clientInfo as unknown as Implementation) : undefined,
    clientCapabilities: (params.capabilities ?? {}) as ClientCapabilities,
  });
  const result: Params = {
    protocolVersion,
    capabilities: identity.capabilities,
    serverInfo: identity.serverInfo,
  };
  if (identity.instructions !== undefined) result.instructions = identity.instructions;
  return result;
}

/** Default of `limits.maxResourceSubscriptions`, as for a modern listen request. */
const MAX_SUBSCRIPTIONS = 1000;

/**
 * Session-only methods by name. `maxSubscriptions` bounds a session's resource
 * subscriptions like `limits.maxResourceSubscriptions` bounds one modern listen request.
 */
export const SESSION_METHODS: Record<
  string,
  (session: LegacySession, params: Params, maxSubscriptions?: number) => Params
> = {
  ping: () => ({}),
  'logging/setLevel': (session, params) => {
    if (!(LOGGING_LEVELS as readonly unknown[]).includes(params.level)) {
      throw McpError.of('InvalidParams', `level must be one of ${LOGGING_LEVELS.join(', ')}`);
    }
    session.logLevel = params.level as LoggingLevel;
    return {};
  },
  'resources/subscribe': (session, params, max = MAX_SUBSCRIPTIONS) => {
    const uri = requireUri(params);
    if (!session.subscriptions.has(uri) && session.subscriptions.size >= max) {
      throw McpError.of(
        'InvalidParams',
        `more than ${max} resourceSubscriptions (limits.maxResourceSubscriptions)`,
      );
    }
    session.subscriptions.add(uri);
    return {};
  },
  'resources/unsubscribe': (session, params) => {
    session.subscriptions.delete(requireUri(params));
    return {};
  },
};

function requireUri(params: Params): string {
  if (typeof params.uri !== 'string') throw McpError.of('InvalidParams', 'uri must be a string');
  return params.uri;
}
