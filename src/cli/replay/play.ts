/**
 * Playing a request's recorded steps: notifications and the answer are sent as they are; a
 * recorded server request is sent with a fresh id and waits for the client's answer.
 */
import { checkEnvelope } from '../../core/runtime.js';
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

/** A frame from the client, sorted by what the replay does with each of its messages. */
export interface Frame {
  /** Requests to answer from the recording. */
  requests: { id: string | number; method: string; params?: unknown }[];
  /** Error responses for invalid messages that carry an id or are not notifications. */
  refusals: Record<string, unknown>[];
}

/**
 * Sorts a parsed frame (one message or a batch) with the JSON-RPC envelope rules mcpkit's
 * servers apply (core `checkEnvelope`): a response settles a replayed server request, a
 * notification is taken, an invalid message gets the -32600 a real server would send (never
 * for a malformed notification). Source: JSON-RPC 2.0 §5, 2026-07-28 basic "Messages".
 */
export function frameOf(parsed: unknown, asks: Asks): Frame {
  const frame: Frame = { requests: [], refusals: [] };
  for (const value of Array.isArray(parsed) ? parsed : [parsed]) {
    const checked = checkEnvelope(value);
    if (checked.kind === 'invalid') {
      if (!checked.notification) frame.refusals.push({ ...checked.error });
    } else if (checked.kind === 'response') asks.answered({ ...checked.message });
    else if (checked.kind === 'request') frame.requests.push(checked.message);
  }
  return frame;
}
