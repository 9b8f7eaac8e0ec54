/**
 * Per-principal counts of what clients hold open on a server (listen streams, tasks), so
 * one client cannot take what all share. A principal is the key the transport names
 * (`ScopeBinding.principal`: the verified identity, else the peer's address), falling
 * back to the verified identity; an unidentified caller ('') is held only to the global
 * bounds.
 */
import { McpError } from '../core/errors.js';

/** Counts held per principal under one bound. */
export class PrincipalQuota {
  readonly #counts = new Map<string, number>();
  readonly #max: number;
  readonly #what: string;

  /** `what` names the bound in errors, e.g. `listen streams (limits.maxListenStreamsPerPrincipal)`. */
  constructor(max: number, what: string) {
    this.#max = max;
    this.#what = what;
  }

  /**
   * Takes one unit for `principal`; returns its release (idempotent).
   * @throws McpError -32600 (HTTP 429) when the principal already holds the maximum.
   */
  acquire(principal: string): () => void {
    if (principal === '') return () => undefined;
    const held = this.#counts.get(principal) ?? 0;
    if (held >= this.#max)
      throw new McpError(-32600, `Too Many Requests: this client holds ${this.#max} ${this.#what}`, {
        httpStatus: 429,
      });
    this.#counts.set(principal, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#counts.get(principal) ?? 1) - 1;
      if (left > 0) this.#counts.set(principal, left);
      else this.#counts.delete(principal);
    };
  }
}
