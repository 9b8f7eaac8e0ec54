/**
 * `mcpkit/http`: serve a server definition over Streamable HTTP as one web-standard
 * `(Request) => Promise<Response>` function, both eras on one endpoint. Runs on any
 * platform with `fetch` types (Node 20+, Deno, Bun, workers); see `mcpkit/node` for
 * node:http.
 * Source: 2026-07-28 basic/transports/streamable-http; 2025-11-25 basic/transports.
 */
export { createHttpHandler, type HttpHandler, type HttpHandlerOptions, type RequestInfo } from './handler.js';
export type { PrincipalKey, PrincipalLimits, PrincipalSource } from './admission.js';
export { addressGroup } from './address-group.js';
export type { HeaderReader } from './exchange.js';
export {
  createMemoryEventStore,
  type EventStore,
  type MemoryEventStoreOptions,
  type StoredEvent,
} from './legacy/event-store.js';
export type { SessionChange, SessionMessage, SessionRecord, SessionStore } from './legacy/session-store.js';
export { LOOPBACK_HOSTS } from '../../core/runtime.js';
export type { OriginPolicy } from './security.js';
export type { CorsOptions } from './cors.js';
export {
  principalOf,
  type AuthOutcome,
  type GuardRequest,
  type GuardResponse,
  type HttpAuthGuard,
} from './auth-guard.js';
export {
  buildServerCard,
  type CardSource,
  type ServerCardHosting,
  type ServerCardOptions,
} from './server-card.js';
