/**
 * `mcpkit/cloudflare`: serve a server definition on Cloudflare Workers without
 * `nodejs_compat`. `createWorker` is the Worker (`export default createWorker(server)`);
 * `sessionObject` is the Durable Object class that holds each legacy session;
 * `createDurableTaskStore` and `taskObject` keep tasks in Durable Objects, so that any
 * isolate finds any task; `createDurableUserStateStore` and `userStateObject` keep each
 * caller's `ctx.userState` in one; `createDurableFacadeStore` and `facadeObject` keep the
 * authorization server façade's registrations, flows, codes and grants.
 * Source: 2026-07-28 basic/transports/streamable-http; 2025-11-25 basic/transports.
 */
export {
  createWorker,
  type McpWorker,
  type ServerSource,
  type WorkerEnv,
  type WorkerOptions,
} from './worker.js';
export { sessionObject, type SessionObjectClass } from './session-object.js';
export {
  createDurableTaskStore,
  taskObject,
  type DurableTaskStoreOptions,
  type TaskObjectClass,
} from './task-store.js';
export {
  createDurableUserStateStore,
  userStateObject,
  type UserStateObjectClass,
} from './user-state-store.js';
export { createDurableFacadeStore, facadeObject, type FacadeObjectClass } from './facade-store.js';
export type {
  DurableObjectId,
  DurableObjectNamespace,
  DurableObjectState,
  DurableObjectStorage,
  DurableObjectStub,
  ExecutionContext,
} from './types.js';
