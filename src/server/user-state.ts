/**
 * `ctx.userState`: what a handler keeps for the caller between requests, the same on both
 * eras and, with a shared store, across a fleet. The modern era has no session, so data a
 * legacy server kept on its session belongs here, keyed by who is calling.
 *
 * Whose state a request reaches (its scope, always within this server's name):
 * 1. an identified caller (`principalOf(ctx.auth)`: `sub:` or `client:`): that principal's,
 *    on every era, transport and instance;
 * 2. else a legacy HTTP session's: that session's (its id is unguessable and shared by a fleet);
 * 3. else a stdio or in-memory connection's: that connection's (one client per process);
 * 4. else (an anonymous modern HTTP request, or a task of an anonymous caller): none; the
 *    calls reject with -32600 `Forbidden` (HTTP 403), since nothing tells two such callers
 *    apart (a peer address is not an identity).
 * Source: 2026-07-28 client/elicitation "Statefulness" (state MUST be bound to the user,
 * identified from the credentials, e.g. `sub`); server/tools "Stateful Tools".
 */
import {
  LocalError,
  WireError,
  createMemoryUserStateStore,
  type AuthInfo,
  type UserStateRefusal,
  type UserStateStore,
} from '../core/index.js';
import { principalOf, userStateRefusal } from '../core/runtime.js';
import type { SchemaLimits } from '../validation/index.js';

/** What {@link UserStates.open} reads of a request's binding (server/scope.ts `ScopeBinding`). */
interface BindingView {
  readonly session?: { readonly id: string | undefined } | undefined;
  readonly headers?: object | undefined;
  readonly openSession?: unknown;
}

/** Options of {@link UserState.set}. */
export interface UserStateSetOptions {
  /** Milliseconds this entry lives from this write (default: the server's `userState.ttlMs`). */
  ttlMs?: number;
}

/**
 * The caller's key-value store (`ctx.userState`). Values are JSON: stored as
 * `JSON.stringify` writes them and read back as a fresh `JSON.parse` copy. Each entry
 * expires `ttlMs` after the `set` that wrote it; reading does not extend it.
 */
export interface UserState {
  /**
   * The value stored under `key`, or undefined (never set, deleted or expired).
   * @throws WireError -32600 `Forbidden` for a caller with no scope (see the module comment).
   */
  get(key: string): Promise<unknown>;
  /**
   * Stores `value` under `key`, replacing its earlier value and TTL.
   * @throws LocalError `INVALID_ARGUMENT` for a key that is not a non-empty string, a value
   *   `JSON.stringify` cannot write, or a `ttlMs` that is not a positive finite number;
   *   LocalError `LIMIT_EXCEEDED` for a key longer than `maxKeyLength` or a value longer
   *   than `maxValueBytes`; WireError -32600 `TooManyRequests` (HTTP 429, `data.limit`
   *   `maxKeysPerPrincipal` or `maxBytesPerPrincipal`) when the caller's entries would pass
   *   their bound; -32603 `ServiceUnavailable` (HTTP 503) when the store is full;
   *   -32600 `Forbidden` for a caller with no scope.
   */
  set(key: string, value: unknown, options?: UserStateSetOptions): Promise<void>;
  /** Removes `key`; true when it held an unexpired value. @throws as {@link get}. */
  delete(key: string): Promise<boolean>;
}

/**
 * `createServer({ userState })`: where `ctx.userState` lives and its bounds. Bounds apply per
 * scope (each principal, anonymous session or connection), so one caller's entries can never
 * refuse, evict or replace another's. RangeError from `createServer` for a bound that is not positive.
 */
export interface UserStateOptions {
  /**
   * The backend (default: in memory, this process only). A fleet shares one: `mcpkit/redis`
   * `createRedisUserStateStore` (or `createRedisFleet().userStateStore`), or on Workers
   * `mcpkit/cloudflare` `createDurableUserStateStore`.
   */
  store?: UserStateStore;
  /** Default lifetime of an entry, in milliseconds from its `set` (default 86 400 000: one day). */
  ttlMs?: number;
  /** Longest key, in UTF-16 code units (default 256). */
  maxKeyLength?: number;
  /** Largest value, in UTF-8 bytes of its JSON text (default 65 536). */
  maxValueBytes?: number;
  /** Most unexpired keys one scope holds (default 1 000). */
  maxKeysPerPrincipal?: number;
  /** Most bytes (keys and JSON texts, UTF-8) one scope's unexpired entries hold together (default 1 MiB). */
  maxBytesPerPrincipal?: number;
}

type Bounds = Required<Omit<UserStateOptions, 'store'>>;

const DEFAULTS: Bounds = {
  ttlMs: 86_400_000,
  maxKeyLength: 256,
  maxValueBytes: 65_536,
  maxKeysPerPrincipal: 1000,
  maxBytesPerPrincipal: 1024 * 1024,
};

/** Ids of anonymous connections, made on first use of their state. */
const connections = new WeakMap<object, string>();

/**
 * One server's user state: its settings, checked once, and its store (made on first use).
 * The server hands it to each request's scope, whose `userState` getter calls {@link open}
 * only when a handler reads it.
 */
class UserStates {
  readonly #bounds: Bounds;
  readonly #prefix: string;
  #store: UserStateStore | undefined;

  /** @throws RangeError for a bound or TTL that is not positive. */
  constructor(options: UserStateOptions | undefined, serverName: string) {
    const { store, ...bounds } = options ?? {};
    this.#bounds = { ...DEFAULTS, ...bounds };
    for (const [name, value] of Object.entries(this.#bounds))
      if (!(value > 0)) throw new RangeError(`createServer: userState.${name} must be positive`);
    this.#store = store;
    this.#prefix = `${serverName.length}:${serverName}/`;
  }

  /** The state of the caller `auth` on `binding` (see the module comment for the rule). */
  open(auth: AuthInfo | undefined, binding: BindingView): UserState {
    const scope = this.#scopeOf(auth, binding);
    const store = (this.#store ??= createMemoryUserStateStore());
    const bounds = this.#bounds;
    return {
      get: async (key) => {
        const text = await store.get(owned(scope), checkKey(key, bounds));
        return text === undefined ? undefined : JSON.parse(text);
      },
      set: async (key, value, options) => {
        const write = entryOf({ scope: owned(scope), key: checkKey(key, bounds), value, options }, bounds);
        const refused = await store.set(write);
        if (refused) throw userStateRefusal(refused, limitOf(refused, bounds));
      },
      delete: async (key) => store.delete(owned(scope), checkKey(key, bounds)),
    };
  }

  #scopeOf(auth: AuthInfo | undefined, binding: BindingView): string | undefined {
    const principal = principalOf(auth);
    if (principal !== '') return `${this.#prefix}principal:${principal}`;
    const session = binding.session?.id;
    if (session !== undefined) return `${this.#prefix}session:${session}`;
    if (binding.headers !== undefined || binding.openSession === undefined) return undefined;
    let id = connections.get(binding);
    if (id === undefined) connections.set(binding, (id = crypto.randomUUID()));
    return `${this.#prefix}connection:${id}`;
  }
}

/**
 * The caller's state, for the getter `ctx.userState` (server/scope.ts).
 * @throws LocalError `INVALID_ARGUMENT` for a request no server serves (a scope made by hand).
 */
export function openUserState(
  states: UserStates | undefined,
  auth: AuthInfo | undefined,
  binding: BindingView,
): UserState {
  if (!states)
    throw new LocalError('INVALID_ARGUMENT', 'ctx.userState: this request is not served by a server');
  return states.open(auth, binding);
}

function owned(scope: string | undefined): string {
  if (scope !== undefined) return scope;
  throw WireError.of(
    'Forbidden',
    'ctx.userState needs an identified caller: this request carries no credentials and has no legacy session',
  );
}

/** The bound that refused a write, when it is one of the server's (the store's total is its own). */
function limitOf(refused: UserStateRefusal, bounds: Bounds): number | undefined {
  if (refused === 'maxKeysPerPrincipal') return bounds.maxKeysPerPrincipal;
  return refused === 'maxBytesPerPrincipal' ? bounds.maxBytesPerPrincipal : undefined;
}

function checkKey(key: unknown, bounds: Bounds): string {
  if (typeof key !== 'string' || key === '')
    throw new LocalError('INVALID_ARGUMENT', 'ctx.userState: a key must be a non-empty string');
  if (key.length > bounds.maxKeyLength)
    throw new LocalError(
      'LIMIT_EXCEEDED',
      `ctx.userState: key of ${key.length} characters is longer than userState.maxKeyLength (${bounds.maxKeyLength})`,
    );
  return key;
}

function entryOf(
  entry: { scope: string; key: string; value: unknown; options: UserStateSetOptions | undefined },
  bounds: Bounds,
) {
  const ttlMs = entry.options?.ttlMs ?? bounds.ttlMs;
  if (!(ttlMs > 0 && ttlMs < Infinity))
    throw new LocalError('INVALID_ARGUMENT', 'ctx.userState.set: ttlMs must be a positive finite number');
  const text = jsonOf(entry.value);
  const size = utf8Length(text);
  if (size > bounds.maxValueBytes)
    throw new LocalError(
      'LIMIT_EXCEEDED',
      `ctx.userState.set: a value of ${size} bytes is larger than userState.maxValueBytes (${bounds.maxValueBytes})`,
    );
  return {
    scope: entry.scope,
    key: entry.key,
    text,
    bytes: size + utf8Length(entry.key),
    ttlMs: Math.ceil(ttlMs),
    maxKeys: bounds.maxKeysPerPrincipal,
    maxBytes: bounds.maxBytesPerPrincipal,
  };
}

function jsonOf(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new LocalError('INVALID_ARGUMENT', 'ctx.userState.set: the value is not JSON', { cause: error });
  }
  if (text === undefined)
    throw new LocalError('INVALID_ARGUMENT', `ctx.userState.set: a ${typeof value} is not a JSON value`);
  return text;
}

/** UTF-8 length of `text` (a lone surrogate counts 3 bytes, as TextEncoder writes U+FFFD). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4; // a surrogate pair: one code point
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** What a server keeps for all its requests, set on each request's scope (server/scope.ts): one object per server, made once. */
export interface ServedBy {
  /** The server's `limits.schema`, which also bound elicitation `requestedSchema`s. */
  readonly schema: SchemaLimits | undefined;
  /** The server's user state, opened for the caller by `ctx.userState`. */
  readonly userState: UserStates;
}

/** What the server built from `o` sets on each request's scope. @throws RangeError for a bad `userState` bound. */
export function servedBy(o: {
  name: string;
  limits?: { schema?: SchemaLimits | undefined } | undefined;
  userState?: UserStateOptions | undefined;
}): ServedBy {
  return { schema: o.limits?.schema, userState: new UserStates(o.userState, o.name) };
}
