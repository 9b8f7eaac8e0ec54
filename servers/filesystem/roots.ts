/**
 * The allowed directories of one request. Without the client's `roots` capability they are
 * the command line's. With it, the client's roots replace them, as in the official server:
 * a legacy session asks once (`roots/list` on the session) and again after
 * `notifications/roots/list_changed`; a modern request asks with each call (an
 * `input_required` round trip), since a modern client keeps no session to notify.
 * When the client's roots hold no usable directory, the command line's stay.
 * Source: 2025-11-25 and 2026-07-28 client/roots.
 */
import type { RequestContext } from '../../src/server/index.js';
import { directoriesFromRoots } from './paths.js';

interface Asked {
  generation: number;
  dirs: Promise<readonly string[]>;
}

/** The allowed directories, by request. */
export class AllowedDirectories {
  readonly #fromArgs: readonly string[];
  /** Bumped by each `notifications/roots/list_changed`: legacy sessions ask again. */
  #generation = 0;
  /**
   * A legacy session's answer, keyed by the session's client capabilities (one object per
   * session, held as long as the session is), so a finished session's entry goes with it.
   */
  readonly #sessions = new WeakMap<object, Asked>();

  constructor(fromArgs: readonly string[]) {
    this.#fromArgs = fromArgs;
  }

  /** Notes that a client's roots changed (every legacy session asks again on its next call). */
  rootsChanged(): void {
    this.#generation += 1;
  }

  /** The directories that apply to the request of `ctx`. */
  async of(ctx: RequestContext): Promise<readonly string[]> {
    if (!ctx.clientCapabilities.roots) return this.#fromArgs;
    if (ctx.era === 'modern') return this.#ask(ctx);
    const key = ctx.clientCapabilities;
    const known = this.#sessions.get(key);
    if (known && known.generation === this.#generation) return known.dirs;
    const dirs = this.#ask(ctx).catch((error: unknown) => {
      // As the official server: a client that fails to list its roots leaves the directories as they were.
      console.error('Failed to request roots from client:', error instanceof Error ? error.message : error);
      this.#sessions.delete(key);
      return this.#fromArgs;
    });
    this.#sessions.set(key, { generation: this.#generation, dirs });
    return dirs;
  }

  async #ask(ctx: RequestContext): Promise<readonly string[]> {
    const { roots } = await ctx.listRoots({ key: 'roots' });
    const dirs = await directoriesFromRoots(roots);
    if (dirs.length === 0) console.error('No valid root directories provided by client');
    return dirs.length > 0 ? dirs : this.#fromArgs;
  }
}
