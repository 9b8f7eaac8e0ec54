/**
 * The server requests waiting for the person at the browser (elicitation, sampling): each
 * is an `input` event, replayed to pages opened later, until it is answered, withdrawn by
 * the server, or refused because the connection closed. A request that belongs to a task
 * carries its `taskId`, so the Tasks view answers it in place.
 */
import { randomUUID } from 'node:crypto';

type Event = { type: string; [key: string]: unknown };

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  /** The `input` event that asked the person. */
  event: Event;
}

/** The requests waiting for an answer; `emit` sends `input` and `input-done` events. */
export class PendingInputs {
  readonly #pending = new Map<string, Pending>();
  readonly #emit: (event: Event) => void;

  constructor(emit: (event: Event) => void) {
    this.#emit = emit;
  }

  /** The `input` events still waiting, oldest first. */
  events(): Event[] {
    return [...this.#pending.values()].map((p) => p.event);
  }

  /** Asks the person; resolves with the answer. @throws Error when refused or withdrawn. */
  ask(
    request: { kind: 'elicitation' | 'sampling'; params: unknown; taskId?: string | undefined },
    signal: AbortSignal,
  ): Promise<unknown> {
    const id = randomUUID();
    const { kind, params, taskId } = request;
    const event: Event = { type: 'input', id, kind, params, ...(taskId ? { taskId } : {}) };
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, event });
      signal.addEventListener(
        'abort',
        () => {
          if (this.#pending.delete(id)) this.#emit({ type: 'input-done', id });
          reject(new Error('the server cancelled the request'));
        },
        { once: true },
      );
      this.#emit(event);
    });
  }

  /** Answers the request `id` with a result or an error; false when none waits under `id`. */
  answer(id: string, outcome: { result?: unknown; error?: string }): boolean {
    const pending = this.#pending.get(id);
    if (!pending) return false;
    this.#pending.delete(id);
    if (outcome.error !== undefined) pending.reject(new Error(outcome.error));
    else pending.resolve(outcome.result);
    this.#emit({ type: 'input-done', id });
    return true;
  }

  /** Refuses every waiting request (the connection closed). */
  refuseAll(): void {
    for (const [id, pending] of this.#pending) {
      pending.reject(new Error('disconnected'));
      this.#emit({ type: 'input-done', id });
    }
    this.#pending.clear();
  }
}
