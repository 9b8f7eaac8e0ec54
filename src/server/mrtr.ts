/**
 * Server-to-client input on the modern wire (multi round-trip requests).
 * Source: 2026-07-28 basic/patterns/mrtr.
 */
import { McpError } from '../core/errors.js';
import type { Params } from '../core/jsonrpc.js';

/** Placeholder until multi round-trip requests land: refuses with a clear error. */
export async function askModern(method: string, _params: Params): Promise<Params> {
  throw McpError.of('InternalError', `${method} from a handler is not available on modern requests yet`);
}
