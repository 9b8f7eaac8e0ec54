/**
 * One call at a time on a server connection that cannot tell whose its messages are (a
 * legacy server over stdio: its `elicitation/create` and `notifications/message` name no
 * call), so that whatever it sends while a call runs belongs to that call. Calls wait in
 * order; a call whose signal aborts while waiting leaves the line.
 * Source: 2025-11-25 basic/transports "stdio" (one stream, no per-request channel).
 */
import { LocalError } from '../core/index.js';

/** Calls waiting on one connection at most; beyond it a call is refused. */
const MAX_WAITING = 1000;

/** The line of calls on one connection. */
export class Turns {
  #busy = false;
  readonly #waiting: (() => void)[] = [];

  /**
   * Resolves with a release function once the caller's turn has come.
   * @throws LocalError `ABORTED` when `signal` aborts first; `LIMIT_EXCEEDED` when
   *   {@link MAX_WAITING} calls already wait.
   */
  async take(server: string, signal: AbortSignal | undefined): Promise<() => void> {
    if (!this.#busy) return this.#hold();
    if (this.#waiting.length >= MAX_WAITING)
      throw new LocalError(
        'LIMIT_EXCEEDED',
        `${MAX_WAITING} calls already wait for server '${server}', which takes one call at a time`,
      );
    signal?.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      const turn = () => {
        signal?.removeEventListener('abort', leave);
        resolve();
      };
      const leave = () => {
        const index = this.#waiting.indexOf(turn);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(new LocalError('ABORTED', `the call was cancelled while waiting for server '${server}'`));
      };
      signal?.addEventListener('abort', leave, { once: true });
      this.#waiting.push(turn);
    });
    return this.#hold();
  }

  #hold(): () => void {
    this.#busy = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#busy = false;
    };
  }
}
