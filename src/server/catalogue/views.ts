/**
 * Which callers a list change concerns. With per-caller entries (`visible`), a listener (a
 * modern listen stream, a legacy session) remembers a fingerprint of each list as it saw
 * it; on a list change it is told only when its own view differs. A list without per-caller
 * entries is announced to every listener.
 * Source: 2026-07-28 basic/patterns/subscriptions; 2025-11-25 server/tools "List Changed Notification".
 */
import type { ServerEvent } from '../../core/index.js';
import type { ServerCatalogue } from './catalogue.js';
import type { ListKind } from './compiled.js';
import type { Caller } from './types.js';

const KINDS: Readonly<Record<string, ListKind>> = {
  toolsListChanged: 'tools',
  promptsListChanged: 'prompts',
  resourcesListChanged: 'resources',
};

/** One listener's last seen views (see the module comment). */
export class ViewTracker {
  readonly #catalogue: ServerCatalogue;
  readonly #caller: Caller;
  readonly #seen = new Map<ListKind, string>();

  constructor(catalogue: ServerCatalogue, caller: Caller) {
    this.#catalogue = catalogue;
    this.#caller = caller;
    if (catalogue.composed)
      for (const kind of Object.values(KINDS))
        if (catalogue.compiled().perCallerOf(kind)) this.#seen.set(kind, catalogue.fingerprint(kind, caller));
  }

  /** False for a list change that leaves this listener's view as it was; true for any other event. */
  concerns(event: ServerEvent): boolean {
    const kind = KINDS[event.type];
    if (kind === undefined || !this.#catalogue.composed) return true;
    if (!this.#catalogue.compiled().perCallerOf(kind)) {
      this.#seen.delete(kind);
      return true;
    }
    const now = this.#catalogue.fingerprint(kind, this.#caller);
    if (this.#seen.get(kind) === now) return false;
    this.#seen.set(kind, now);
    return true;
  }
}
