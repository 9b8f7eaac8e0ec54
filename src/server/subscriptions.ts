/**
 * Who is subscribed to which resource, counted over every client of one server instance:
 * legacy sessions (`resources/subscribe` / `unsubscribe`, and the session's end) and
 * modern `subscriptions/listen` streams (their `resourceSubscriptions`, until the stream
 * ends). The server author's hooks hear only the edges: `subscribe(uri)` when the first
 * subscriber of a URI arrives, `unsubscribe(uri)` when the last one leaves — the moments
 * to start and stop watching the underlying data.
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
  /** The outcome of the first subscriber's `subscribe` hook (true: accepted). */
  accepted: Promise<boolean>;
}

/** The subscription counts of one server; see the module comment. */
export class ResourceSubscriptions {
  readonly #hooks: ResourceSubscriptionHooks;
  readonly #entries = new Map<string, Entry>();
  /** The last hook call per URI, so subscribe and unsubscribe of one URI run in order. */
  readonly #order = new Map<string, Promise<unknown>>();

  readonly #timeoutMs: number;

  /**
   * `timeoutMs` bounds each hook call (default 30 000; Infinity waits forever).
   * @throws RangeError when `timeoutMs` is not a positive number.
   */
  constructor(hooks: ResourceSubscriptionHooks = {}, timeoutMs = HOOK_TIMEOUT_MS) {
    if (!(typeof timeoutMs === 'number' && timeoutMs > 0))
      throw new RangeError(
        `limits.subscriptionHookTimeoutMs must be a positive number, not ${String(timeoutMs)}`,
      );
    this.#hooks = hooks;
    this.#timeoutMs = timeoutMs;
  }

  /** How many subscribers `uri` has now. */
  count(uri: string): number {
    return this.#entries.get(uri)?.count ?? 0;
  }

  /**
   * Takes one subscription to each of `uris` (duplicates once) and resolves with those
   * accepted; a hook that throws refuses its URI. Without a `subscribe` hook it takes them
   * all at once and returns synchronously, so a listen stream is acknowledged without delay.
   */
  acquireAll(uris: readonly string[]): string[] | Promise<string[]> {
    const unique = [...new Set(uris)];
    if (!this.#hooks.subscribe) {
      for (const uri of unique) this.#hold(uri);
      return unique;
    }
    return Promise.all(unique.map((uri) => this.acquire(uri).catch(() => false))).then((outcomes) =>
      unique.filter((_, i) => outcomes[i]),
    );
  }

  #hold(uri: string): void {
    const entry = this.#entries.get(uri);
    if (entry) entry.count++;
    else this.#entries.set(uri, { count: 1, accepted: Promise.resolve(true) });
  }

  /**
   * Takes one subscription to `uri`. Resolves true when it counts (release it later),
   * false when the hook refused it.
   * @throws what the `subscribe` hook threw (the subscription does not count).
   */
  async acquire(uri: string): Promise<boolean> {
    let entry = this.#entries.get(uri);
    if (!entry) {
      entry = {
        count: 0,
        accepted: this.#run(uri, 'subscribe').then((r) => r !== false),
      };
      this.#entries.set(uri, entry);
    }
    entry.count++;
    const current = entry;
    try {
      if (await current.accepted) return true;
    } catch (error) {
      this.#drop(uri, current);
      throw error;
    }
    this.#drop(uri, current);
    return false;
  }

  /** Gives back one subscription taken with {@link acquire}; the last one calls `unsubscribe`. */
  release(uri: string): void {
    const entry = this.#entries.get(uri);
    if (!entry) return;
    if (--entry.count > 0) return;
    this.#entries.delete(uri);
    void this.#run(uri, 'unsubscribe').catch(() => undefined);
  }

  /** Gives back every subscription in `held` (a legacy session's) and empties it. */
  releaseAll(held: Set<string>): void {
    for (const uri of held) this.release(uri);
    held.clear();
  }

  /**
   * Makes `held` (a legacy session's subscriptions) equal to `uris`: new ones are acquired
   * (a refused one is not reported, and leaves `held` once refused), gone ones released.
   */
  sync(held: Set<string>, uris: Iterable<string>): void {
    const next = new Set(uris);
    for (const uri of [...held]) {
      if (next.has(uri)) continue;
      held.delete(uri);
      this.release(uri);
    }
    for (const uri of next) {
      if (held.has(uri)) continue;
      held.add(uri);
      // Refused or failed: not held, so that releasing `held` later takes no one else's count.
      void this.acquire(uri).then(
        (accepted) => accepted || held.delete(uri),
        () => held.delete(uri),
      );
    }
  }

  /** A refused or failed subscription: forget the entry once nobody waits on it. */
  #drop(uri: string, entry: Entry): void {
    if (--entry.count === 0 && this.#entries.get(uri) === entry) this.#entries.delete(uri);
  }

  /** Calls hook `name` of `uri` after the previous one of `uri` settled (or was abandoned). */
  #run(uri: string, name: 'subscribe' | 'unsubscribe'): Promise<boolean | void> {
    const previous = this.#order.get(uri) ?? Promise.resolve();
    const next = previous.then(() => this.#bounded(uri, name));
    const settled = next.catch(() => undefined);
    this.#order.set(uri, settled);
    void settled.then(() => {
      if (this.#order.get(uri) === settled) this.#order.delete(uri);
    });
    return next;
  }

  /** One hook call, rejected with -32603 once it has taken longer than the timeout. */
  #bounded(uri: string, name: 'subscribe' | 'unsubscribe'): Promise<boolean | void> {
    const work = Promise.resolve().then(() => this.#hooks[name]?.(uri));
    if (this.#timeoutMs === Infinity) return work;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimer(() => {
        if (name === 'subscribe') this.#balanceLate(uri, work);
        const why = `the ${name} hook of ${uri} did not settle within ${this.#timeoutMs} ms`;
        reject(WireError.of('InternalError', `${why} (limits.subscriptionHookTimeoutMs)`));
      }, this.#timeoutMs);
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }

  /** An abandoned subscribe that accepts later, with nobody subscribed then: unsubscribe it. */
  #balanceLate(uri: string, work: Promise<boolean | void>): void {
    void work.then(
      (accepted) => {
        if (accepted !== false && !this.#entries.has(uri))
          void this.#run(uri, 'unsubscribe').catch(() => undefined);
      },
      () => undefined,
    );
  }
}
