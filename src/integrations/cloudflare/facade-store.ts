/**
 * The authorization server façade's store in Durable Objects, for a Worker: one object per
 * key (`idFromName(key)`), which keeps its value until its expiry (the object's alarm deletes
 * it). An object handles one event at a time, so `take` (codes, refresh tokens) is atomic
 * across isolates, and a counter's increment is too.
 */
import { LocalError } from '../../core/index.js';
import type { FacadeStore } from '../../auth/index.js';
import type { DurableObjectNamespace, DurableObjectState } from './types.js';

const ORIGIN = 'https://facade.object';

interface Entry {
  value: string;
  until: number;
}

/**
 * The {@link FacadeStore} over `namespace`, the binding of a {@link facadeObject} class.
 * @throws LocalError `CONNECTION_CLOSED` from a call when the object cannot be reached.
 */
export function createDurableFacadeStore(namespace: DurableObjectNamespace): FacadeStore {
  const call = async (key: string, op: string, body: unknown = {}): Promise<unknown> => {
    const stub = namespace.get(namespace.idFromName(key));
    const response = await stub.fetch(
      new Request(`${ORIGIN}/${op}`, { method: 'POST', body: JSON.stringify(body) }),
    );
    if (!response.ok)
      throw new LocalError('CONNECTION_CLOSED', `façade store: ${op} answered ${response.status}`);
    return response.json();
  };
  return {
    get: async (key) => ((await call(key, 'get')) as string | null) ?? undefined,
    set: async (key, value, ttlMs) => void (await call(key, 'set', { value, ttlMs })),
    take: async (key) => ((await call(key, 'take')) as string | null) ?? undefined,
    delete: async (key) => void (await call(key, 'delete')),
    increment: async (key, ttlMs) => (await call(key, 'increment', { ttlMs })) as number,
  };
}

/** The shape of the class {@link facadeObject} returns, as wrangler instantiates it. */
export interface FacadeObjectClass {
  new (
    state: DurableObjectState,
    env: unknown,
  ): { fetch(request: Request): Promise<Response>; alarm(): Promise<void> };
}

/**
 * Makes the Durable Object class that holds one entry of the façade's store; export it from
 * the Worker module under the class name the wrangler config binds, and pass the binding to
 * {@link createDurableFacadeStore}.
 */
export function facadeObject(): FacadeObjectClass {
  return class McpFacadeObject {
    readonly #state: DurableObjectState;

    constructor(state: DurableObjectState) {
      this.#state = state;
    }

    async fetch(request: Request): Promise<Response> {
      const op = new URL(request.url).pathname;
      const body = (await request.json()) as { value?: string; ttlMs?: number };
      const storage = this.#state.storage;
      const stored = await storage.get<Entry>('entry');
      const live = stored && stored.until > Date.now() ? stored : undefined;
      const keep = async (value: string, ttlMs: number) => {
        const until = Date.now() + ttlMs;
        await storage.put('entry', { value, until } satisfies Entry);
        await storage.setAlarm(until);
      };
      switch (op) {
        case '/get':
          return Response.json(live?.value ?? null);
        case '/set':
          await keep(body.value!, body.ttlMs!);
          return Response.json(true);
        case '/take':
        case '/delete':
          await storage.delete('entry');
          return Response.json(op === '/take' ? (live?.value ?? null) : true);
        case '/increment': {
          const next = Number(live?.value ?? 0) + 1;
          if (live) await storage.put('entry', { value: String(next), until: live.until } satisfies Entry);
          else await keep(String(next), body.ttlMs!);
          return Response.json(next);
        }
        default:
          return new Response('Not Found', { status: 404 });
      }
    }

    /** The entry's time ended: it is gone. */
    async alarm(): Promise<void> {
      await this.#state.storage.deleteAll();
    }
  };
}
