/**
 * The parts of the Cloudflare Workers runtime API that mcpkit/cloudflare uses, in our own
 * words, so that the package needs no `@cloudflare/workers-types` (structurally compatible
 * with them). Source: developers.cloudflare.com/workers/runtime-apis and /durable-objects/api.
 */

/** The third argument of a Worker's `fetch`: what outlives the response. */
export interface ExecutionContext {
  /** Keeps the invocation alive until `promise` settles (up to the platform's limit after the response). */
  waitUntil(promise: Promise<unknown>): void;
}

/** A Durable Object's id. */
export interface DurableObjectId {
  toString(): string;
}

/** A client of one Durable Object. */
export interface DurableObjectStub {
  fetch(request: Request): Promise<Response>;
}

/** A Durable Object namespace binding (`durable_objects.bindings` in wrangler's config). */
export interface DurableObjectNamespace {
  newUniqueId(): DurableObjectId;
  idFromName(name: string): DurableObjectId;
  /** @throws TypeError when `id` is not an id of this namespace. */
  idFromString(id: string): DurableObjectId;
  get(id: DurableObjectId): DurableObjectStub;
}

/** A Durable Object's transactional storage (the key-value API). */
export interface DurableObjectStorage {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  deleteAll(): Promise<void>;
  setAlarm(scheduledTime: number): Promise<void>;
}

/** The first argument of a Durable Object's constructor. */
export interface DurableObjectState {
  readonly id: DurableObjectId;
  readonly storage: DurableObjectStorage;
  /** Runs `callback` with no other event delivered to the object until it settles. */
  blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>;
}
