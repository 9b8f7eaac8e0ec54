/**
 * Which of our requests a server-initiated request belongs to, on legacy Streamable HTTP:
 * a server sends a request related to one of ours on that POST's SSE stream. Kept until
 * our answer to it was posted ({@link forget}), at most `max` entries (the oldest go first).
 * Source: 2025-11-25 basic/transports "Sending Messages to the Server" (the SSE stream
 * MAY carry requests and notifications related to the originating request).
 */
import type { RequestId } from '../../core/index.js';

/** Server request id → the id of our request whose stream carried it. */
export class RelatedRequests {
  readonly #byServerId = new Map<RequestId, RequestId>();
  readonly #max: number;

  constructor(max = 1024) {
    this.#max = max;
  }

  /** Notes that the server's request `id` arrived on the stream of our request `ours`. */
  record(id: RequestId, ours: RequestId): void {
    this.#byServerId.delete(id);
    this.#byServerId.set(id, ours);
    if (this.#byServerId.size > this.#max) this.#byServerId.delete(this.#byServerId.keys().next().value!);
  }

  /** The request the server's request `id` arrived with. */
  take(id: RequestId): RequestId | undefined {
    return this.#byServerId.get(id);
  }

  /** Drops the server's request `id` (answered); returns the request it arrived with. */
  forget(id: RequestId): RequestId | undefined {
    const ours = this.#byServerId.get(id);
    this.#byServerId.delete(id);
    return ours;
  }
}
