/**
 * Playing a request's recorded steps: notifications and the answer are sent as they are; a
 * recorded server request is sent with a fresh id and waits for the client's answer.
 */
import type { Step } from './book.js';

/** How long a replayed server request waits for the client's answer, in ms. */
const ASK_TIMEOUT_MS = 30_000;

/** Where replayed server requests wait for the client's answers, by id. */
export class Asks {
  readonly #waiting = new Map<string, () => void>();
  #next = 0;

  /** A fresh id for a replayed server request. */
  nextId(): string {
    return `replay-${++this.#next}`;
  }

  /** Resolves when the client answers `id`, or after {@link ASK_TIMEOUT_MS}. */
  wait(id: string): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#settle(id), ASK_TIMEOUT_MS);
      this.#waiting.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Takes a message from the client: true when it answered a replayed request. */
  answered(message: Record<string, unknown>): boolean {
    if (typeof message.method === 'string' || typeof message.id !== 'string') return false;
    return this.#settle(message.id);
  }

  #settle(id: string): boolean {
    const done = this.#waiting.get(id);
    this.#waiting.delete(id);
    done?.();
    return done !== undefined;
  }
}

/** Sends a request's steps through `send`, in order; an `ask` waits for the client's answer. */
export async function play(
  steps: readonly Step[],
  send: (message: Record<string, unknown>) => void,
  asks: Asks,
): Promise<void> {
  for (const step of steps) {
    if (step.kind !== 'ask') {
      send(step.message);
      continue;
    }
    const id = asks.nextId();
    const waiting = asks.wait(id);
    send({ ...step.message, id });
    await waiting;
  }
}

/** Each message of a JSON-RPC frame (a batch is its members), objects only. */
export function messagesOf(parsed: unknown): Record<string, unknown>[] {
  const all = Array.isArray(parsed) ? parsed : [parsed];
  return all.filter(
    (m): m is Record<string, unknown> => m !== null && typeof m === 'object' && !Array.isArray(m),
  );
}
