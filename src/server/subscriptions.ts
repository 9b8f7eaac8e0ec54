/**
 * Who is subscribed to which resource, counted over every client of one server instance:
 * legacy sessions (`resources/subscribe` / `unsubscribe`, and the session's end) and
 * modern `subscriptions/listen` streams (their `resourceSubscriptions`, until the stream
 * ends). The server author's hooks hear only the edges: `subscribe(uri)` when the first
 * subscriber of a URI arrives, `unsubscribe(uri)` when the last one leaves — the moments
 * to start and stop watching the underlying data.
 *
 * Spellings of one resource URI (`file:///a%2Eb` and `file:///a.b`, a case-changed scheme or
 * host, percent-encoded or raw non-ASCII: resource-uri.ts) count as one URI: the hooks see
 * the canonical URI (the registered resource's URI, else the comparison key), worked out
 * once when the first subscriber arrives, and {@link ResourceSubscriptions.count} takes any.
 *
 * Every hook call is bounded (`limits.subscriptionHookTimeoutMs`, default 30 s): a hook that
 * has not settled by then is abandoned, so one hung hook never holds a URI for later
 * subscribers. An abandoned `subscribe` fails its waiting subscribers with -32603 naming the
 * limit and the URI is free again; if it later accepts while nobody subscribes to the URI,
 * `unsubscribe` is called to balance it. An abandoned `unsubscribe` lets the next hook run.
 * Source: 2025-11-25 server/resources "Subscriptions"; 2026-07-28 basic/patterns/subscriptions.
 */
import { WireError } from '../core/index.js';
import { setTimer } from '../core/runtime.js';
import { resourceUriKey, SubscribedUris } from './resource-uri.js';

/** Default bound on one subscription hook call, in milliseconds. */
const HOOK_TIMEOUT_MS = 30_000;

/**
 * Hooks on resource subscriptions (`createServer({ resourceSubscriptions })`). Counts are
 * per server instance: in a fleet sharing an event bus, each instance hears about its own
 * clients only.
 */
export interface ResourceSubscriptionHooks {
  /**
   * The first client subscribed to `uri`. Resolve `false` (or reject) to refuse it: a
   * legacy `resources/subscribe` then gets an error (the rejection's WireError, else
   * -32602), and a listen request leaves the URI out of its acknowledged filter. While
   * this runs, other subscribers of the same URI wait for its outcome, at most
   * `limits.subscriptionHookTimeoutMs` (then -32603, and the URI is free again).
   */
  subscribe?(uri: string): boolean | void | Promise<boolean | void>;
  /**
   * The last subscriber of `uri` is gone (unsubscribed, its listen ended, its session
   * closed). Errors are ignored; the next hook of `uri` waits for it at most
   * `limits.subscriptionHookTimeoutMs`.
   */
  unsubscribe?(uri: string): void | Promise<void>;
}

interface Entry {
  count: number;
  /** The URI the hooks are called with (the canonical URI of the resource). */
  uri: string;
  /** The outcome of the first subscriber's `subscribe` hook (true: accepted). */
  accepted: Promise<boolean>;
}

/** The subscription counts of one server; see the module comment. */
export class ResourceSubscriptions {
  readonly #hooks: ResourceSubscriptionHooks;
  /** By the URI's comparison key (resource-uri.ts). */
  readonly #entries = new Map<string, Entry>();
  /** The last hook call per key, so subscribe and unsubscribe of one URI run in order. */
  readonly #order = new Map<string, Promise<unknown>>();

  readonly #timeoutMs: number;
  readonly #canonical: (key: string) => string;

  /**
   * `timeoutMs` bounds each hook call (default 30 000; Infinity waits forever); `canonical`
   * gives the URI the hooks hear for a comparison key (default: the key itself).
   * @throws RangeError when `timeoutMs` is not a positive number.
   */
  constructor(
    hooks: ResourceSubscriptionHooks = {},
    timeoutMs = HOOK_TIMEOUT_MS,
    canonical: (key: string) => string = (key) => key,
  ) {
    if (!(typeof timeoutMs === 'number' && timeoutMs > 0))
      throw new RangeError(
        `limits.subscriptionHookTimeoutMs must be a positive number, not ${String(timeoutMs)}`,
      );
    this.#hooks = hooks;
    this.#timeoutMs = timeoutMs;
    this.#canonical = canonical;
  }

  /** How many subscribers `uri` (in any spelling) has now. */
  count(uri: string): number {
    return this.#entries.get(resourceUriKey(uri))?.count ?? 0;
  }

  /**
   * Takes one subscription to each of `uris` (spellings of one resource once: the first)
   * and resolves with those accepted; a hook that throws refuses its URI. Without a
   * `subscribe` hook it takes them all at once and returns synchronously, so a listen
   * stream is acknowledged without delay.
   */
  acquireAll(uris: readonly string[]): string[] | Promise<string[]> {
    const unique = [...new SubscribedUris(uris).values()];
    if (!this.#hooks.subscribe) {
      for (const uri of unique) this.#hold(uri);
      return unique;
    }
    return Promise.all(unique.map((uri) => this.acquire(uri).catch(() => false))).then((outcomes) =>
      unique.filter((_, i) => outcomes[i]),
    );
  }

  #hold(uri: string): void {
    const key = resourceUriKey(uri);
    const entry = this.#entries.get(key);
    if (entry) entry.count++;
    else this.#entries.set(key, { count: 1, uri: this.#canonical(key), accepted: Promise.resolve(true) });
  }

  /**
   * Takes one subscription to `uri`. Resolves true when it counts (release it later),
   * false when the hook refused it.
   * @throws what the `subscribe` hook threw (the subscription does not count).
   */
  async acquire(uri: string): Promise<boolean> {
    const key = resourceUriKey(uri);
    let entry = this.#entries.get(key);
    if (!entry) {
      const canonical = this.#canonical(key);
      entry = {
        count: 0,
        uri: canonical,
        accepted: this.#run(key, canonical, 'subscribe').then((r) => r !== false),
      };
      this.#entries.set(key, entry);
    }
    entry.count++;
    const current = entry;
    try {
      if (await current.accepted) return true;
    } catch (error) {
      this.#drop(key, current);
      throw error;
    }
    this.#drop(key, current);
    return false;
  }

  /**
   * Gives back one subscription to `uri` (in any spelling) taken with {@link acquire}; the
   * last one calls `unsubscribe`.
   */
  release(uri: string): void {
    const key = resourceUriKey(uri);
    const entry = this.#entries.get(key);
    if (!entry) return;
    if (--entry.count > 0) return;
    this.#entries.delete(key);
    void this.#run(key, entry.uri, 'unsubscribe').catch(() => undefined);
  }

  /** Gives back every subscription in `held` (a legacy session's) and empties it. */
  releaseAll(held: SubscribedUris): void {
    for (const uri of held.values()) this.release(uri);
    held.clear();
  }

  /**
   * Makes `held` (a legacy session's subscriptions) equal to `uris`, spellings of one
   * resource being one: new ones are acquired (a refused one is not reported, and leaves
   * `held` once refused), gone ones released.
   */
  sync(held: SubscribedUris, uris: Iterable<string>): void {
    const next = new SubscribedUris(uris);
    for (const uri of [...held.values()]) {
      if (next.spellingOf(uri) !== undefined) continue;
      held.delete(uri);
      this.release(uri);
    }
    for (const uri of next.values()) {
      if (!held.add(uri)) continue;
      // Refused or failed: not held, so that releasing `held` later takes no one else's count.
      void this.acquire(uri).then(
        (accepted) => accepted || held.delete(uri),
        () => held.delete(uri),
      );
    }
  }

  /** A refused or failed subscription: forget the entry once nobody waits on it. */
  #drop(key: string, entry: Entry): void {
    if (--entry.count === 0 && this.#entries.get(key) === entry) this.#entries.delete(key);
  }

  /**
   * Calls hook `name` with `uri` after the previous one of the same `key` settled (or was
   * abandoned).
   */
  #run(key: string, uri: string, name: 'subscribe' | 'unsubscribe'): Promise<boolean | void> {
    const previous = this.#order.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.#bounded(key, uri, name));
    const settled = next.catch(() => undefined);
    this.#order.set(key, settled);
    void settled.then(() => {
      if (this.#order.get(key) === settled) this.#order.delete(key);
    });
    return next;
  }

  /** One hook call, rejected with -32603 once it has taken longer than the timeout. */
  #bounded(key: string, uri: string, name: 'subscribe' | 'unsubscribe'): Promise<boolean | void> {
    const work = Promise.resolve().then(() => this.#hooks[name]?.(uri));
    if (this.#timeoutMs === Infinity) return work;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimer(() => {
        if (name === 'subscribe') this.#balanceLate(key, uri, work);
        const why = `the ${name} hook of ${uri} did not settle within ${this.#timeoutMs} ms`;
        reject(WireError.of('InternalError', `${why} (limits.subscriptionHookTimeoutMs)`));
      }, this.#timeoutMs);
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }

  /** An abandoned subscribe that accepts later, with nobody subscribed then: unsubscribe it. */
  #balanceLate(key: string, uri: string, work: Promise<boolean | void>): void {
    void work.then(
      (accepted) => {
        if (accepted !== false && !this.#entries.has(key))
          void this.#run(key, uri, 'unsubscribe').catch(() => undefined);
      },
      () => undefined,
    );
  }
}
