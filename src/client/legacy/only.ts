/**
 * Methods only legacy servers have, refused on a modern server with a pointer to what
 * replaces them.
 * Source: 2026-07-28 basic/versioning; 2025-11-25 basic/utilities/ping,
 * server/utilities/logging, server/resources "Subscriptions".
 */
import { LocalError, type Params, type RequestOptions } from '../../core/index.js';
import { missingCapabilities, serverCapabilityNeeded } from '../../core/runtime.js';
import type { Connection } from '../connection.js';

/** Legacy-only methods and what a modern server offers instead. */
const LEGACY_ONLY = {
  ping: 'the modern protocol has no ping; use discover()',
  'logging/setLevel': 'modern servers take the level per request: set the logLevel option',
  'resources/subscribe': 'modern servers deliver resource updates through subscriptions/listen: use listen()',
  'resources/unsubscribe':
    'modern servers deliver resource updates through subscriptions/listen: use listen()',
} as const;

/** A method only legacy servers have. */
export type LegacyOnlyMethod = keyof typeof LEGACY_ONLY;

/**
 * Sends a legacy-only request and discards its (empty) result.
 * @throws LocalError `UNSUPPORTED_ERA` on a modern server; `MISSING_CAPABILITY` when the
 *   server did not declare what the method needs (`resources.subscribe`, `logging`);
 *   errors of the request otherwise.
 */
export async function sendLegacyOnly(
  connection: Connection,
  request: { method: LegacyOnlyMethod; params?: Params },
  options?: RequestOptions,
): Promise<void> {
  const { method, params } = request;
  if (connection.server.era === 'modern') {
    const hint = LEGACY_ONLY[method];
    throw new LocalError('UNSUPPORTED_ERA', `${method} is legacy-only and this server is modern: ${hint}`);
  }
  const missing = missingCapabilities(
    connection.server.serverCapabilities ?? {},
    serverCapabilityNeeded(method) ?? {},
  );
  if (missing) {
    const needs = JSON.stringify(missing);
    throw new LocalError(
      'MISSING_CAPABILITY',
      `${method} needs the server capability ${needs}, which this server did not declare`,
    );
  }
  await connection.roundTrip(method, params, options);
}
