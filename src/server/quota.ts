/**
 * The key per-principal counts (middleware/quotas.ts) are held under. A principal is the key the transport names
 * (`RequestChannel.principal`: the verified identity, else the peer's address), falling
 * back to the verified identity; an unidentified caller ('') is held only to the global
 * bounds.
 */
import type { RequestChannel } from './channel.js';

/** The principal key of a request ('' when unidentified). */
export function principalKeyOf(channel: RequestChannel): string {
  if (channel.principal !== undefined) return channel.principal;
  const id = channel.authInfo?.subject ?? channel.authInfo?.clientId;
  return id === undefined ? '' : `auth:${id}`;
}
