/**
 * What the server actually answered to `tools/call`, read from the recorded frames. The
 * client refuses a result whose `structuredContent` breaks the tool's `outputSchema`
 * (`INVALID_RESULT`) and keeps no copy; the inspector still shows the person what came, next
 * to the reason it was refused.
 */
import type { RecordedFrame } from './recorder.js';

/** Requests remembered at most (a call whose answer never comes is dropped after this many). */
const MAX_OPEN_CALLS = 100;

type Frame = { id?: unknown; method?: unknown; params?: { name?: unknown }; result?: unknown };

/** The latest `tools/call` result per tool name, until taken. */
export class ReceivedResults {
  readonly #open = new Map<unknown, string>();
  readonly #latest = new Map<string, unknown>();

  /** Reads one recorded frame. */
  note(frame: RecordedFrame): void {
    const message = frame.message as Frame | null;
    if (message === null || typeof message !== 'object' || Array.isArray(message)) return;
    if (frame.direction === 'out' && message.method === 'tools/call') {
      if (typeof message.params?.name !== 'string') return;
      this.#open.set(message.id, message.params.name);
      if (this.#open.size > MAX_OPEN_CALLS) this.#open.delete(this.#open.keys().next().value);
      return;
    }
    const name = frame.direction === 'in' ? this.#open.get(message.id) : undefined;
    if (name === undefined) return;
    this.#open.delete(message.id);
    if (message.result !== undefined) this.#latest.set(name, message.result);
  }

  /** The latest result the server sent for tool `name`, forgotten once taken. */
  take(name: string): unknown {
    const result = this.#latest.get(name);
    this.#latest.delete(name);
    return result;
  }
}

/**
 * A refused result as an error for the web app: the client's message, and the result as it
 * came in `data.received`. Any other error is returned unchanged.
 */
export function withReceived(error: unknown, received: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (!(error instanceof Error) || code !== 'INVALID_RESULT' || received === undefined) return error;
  return Object.assign(new Error(error.message, { cause: error }), { code, data: { received } });
}
