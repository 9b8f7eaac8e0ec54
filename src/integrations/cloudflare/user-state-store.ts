/**
 * User state in Durable Objects: {@link createDurableUserStateStore} is the `UserStateStore`
 * of a Worker (`createServer({ userState: { store } })`), and {@link userStateObject} the
 * class that keeps one scope (one principal of one server, or one anonymous legacy session)
 * per object (`idFromName`), so every isolate reads the same entries. An object handles one
 * event at a time while its storage calls are pending (the platform's input gates), so a
 * write's bound check and the write are one step. Each entry expires with its own TTL; the
 * object's alarm drops expired entries, and the whole object once none is left.
 * Source: 2026-07-28 client/elicitation "Statefulness"; developers.cloudflare.com/durable-objects/api.
 */
import {
  LocalError,
  type UserStateRefusal,
  type UserStateStore,
  type UserStateWrite,
} from '../../core/index.js';
import type { DurableObjectNamespace, DurableObjectState, DurableObjectStorage } from './types.js';

const ORIGIN = 'https://user-state.object';

/** What the object's index records of each key, under `:` and the key (never an `Object.prototype` name). */
interface Indexed {
  expiresAt: number;
  bytes: number;
}

/**
 * Creates the store over `namespace`, the binding of a {@link userStateObject} class.
 * The Durable Objects platform bounds one stored value to 128 KiB: keep `userState.maxValueBytes` below it.
 * @throws LocalError `CONNECTION_CLOSED` from a call when the object cannot be reached.
 */
export function createDurableUserStateStore(namespace: DurableObjectNamespace): UserStateStore {
  const call = async (scope: string, op: string, body: unknown): Promise<unknown> => {
    const stub = namespace.get(namespace.idFromName(`user-state:${scope}`));
    const response = await stub.fetch(
      new Request(`${ORIGIN}/${op}`, { method: 'POST', body: JSON.stringify(body) }),
    );
    if (!response.ok)
      throw new LocalError('CONNECTION_CLOSED', `user state store: ${op} answered ${response.status}`);
    return response.json();
  };
  return {
    get: async (scope, key) => ((await call(scope, 'get', { key })) as string | null) ?? undefined,
    set: async (write) => ((await call(write.scope, 'set', write)) as UserStateRefusal | null) ?? undefined,
    delete: async (scope, key) => (await call(scope, 'delete', { key })) === true,
  };
}

/** The shape of the class {@link userStateObject} returns, as wrangler instantiates it. */
export interface UserStateObjectClass {
  new (
    state: DurableObjectState,
    env: unknown,
  ): {
    fetch(request: Request): Promise<Response>;
    alarm(): Promise<void>;
  };
}

/**
 * Makes the Durable Object class that holds one scope's user state; export it from the
 * Worker module under the class name the wrangler config binds, and pass the binding to
 * {@link createDurableUserStateStore}.
 */
export function userStateObject(): UserStateObjectClass {
  return class McpUserStateObject {
    readonly #storage: DurableObjectStorage;

    constructor(state: DurableObjectState) {
      this.#storage = state.storage;
    }

    /** `get` → the JSON text or null; `set` → null or the refusing bound; `delete` → whether it held one. */
    async fetch(request: Request): Promise<Response> {
      const op = new URL(request.url).pathname;
      const body = (await request.json()) as UserStateWrite;
      const index = await live(this.#storage);
      if (op === '/get')
        return Response.json(index[`:${body.key}`] ? await this.#storage.get<string>(`v:${body.key}`) : null);
      if (op === '/delete') {
        const held = index[`:${body.key}`] !== undefined;
        delete index[`:${body.key}`];
        await Promise.all([this.#storage.delete(`v:${body.key}`), this.#storage.put('index', index)]);
        return Response.json(held);
      }
      if (op !== '/set') return new Response('Not Found', { status: 404 });
      const refused = refusal(index, body);
      if (refused === undefined) await store(this.#storage, index, body);
      return Response.json(refused ?? null);
    }

    /** The earliest TTL ended: drop what expired, and the object once nothing is left. */
    async alarm(): Promise<void> {
      const index = await live(this.#storage);
      if (Object.keys(index).length === 0) await this.#storage.deleteAll();
      else await this.#storage.setAlarm(Math.min(...Object.values(index).map((entry) => entry.expiresAt)));
    }
  };
}

/** The index without expired entries (their values deleted, the index rewritten when it changed). */
async function live(storage: DurableObjectStorage): Promise<Record<string, Indexed>> {
  const index = (await storage.get<Record<string, Indexed>>('index')) ?? {};
  const now = Date.now();
  const expired = Object.keys(index).filter((key) => index[key]!.expiresAt <= now);
  if (expired.length === 0) return index;
  for (const key of expired) delete index[key];
  await Promise.all([...expired.map((key) => storage.delete(`v${key}`)), storage.put('index', index)]);
  return index;
}

function refusal(index: Record<string, Indexed>, write: UserStateWrite): UserStateRefusal | undefined {
  const old = index[`:${write.key}`];
  const keys = Object.keys(index).length + (old ? 0 : 1);
  if (keys > write.maxKeys) return 'maxKeysPerPrincipal';
  const bytes = Object.values(index).reduce((sum, entry) => sum + entry.bytes, 0) - (old?.bytes ?? 0);
  return bytes + write.bytes > write.maxBytes ? 'maxBytesPerPrincipal' : undefined;
}

async function store(storage: DurableObjectStorage, index: Record<string, Indexed>, write: UserStateWrite) {
  const expiresAt = Date.now() + write.ttlMs;
  index[`:${write.key}`] = { expiresAt, bytes: write.bytes };
  await Promise.all([storage.put(`v:${write.key}`, write.text), storage.put('index', index)]);
  await storage.setAlarm(Math.min(...Object.values(index).map((entry) => entry.expiresAt)));
}
