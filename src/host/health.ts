/**
 * A periodic health probe of one server connection: `ping` on a legacy session,
 * `server/discover` on a modern server (the modern protocol has no ping). A probe that
 * fails or gets no answer within `timeoutMs` reports the connection lost. Probes never
 * overlap: the next one is scheduled when the last one ended.
 * Source: 2025-11-25 basic/utilities/ping; 2026-07-28 server/discover, changelog (ping removed).
 */
import type { Client } from '../client/index.js';
import { WireError } from '../core/index.js';
import { setTimer } from '../core/runtime.js';

/** How the host checks that a server it is connected to is still there. */
export interface HealthPolicy {
  /**
   * Milliseconds between probes; 0 disables them. Default 30 000 for Streamable HTTP
   * servers, 0 for stdio (a child that exits is seen at once). At least 100.
   */
  intervalMs?: number;
  /** Milliseconds a probe may take before the connection counts as lost; default 10 000, at most `intervalMs`. */
  timeoutMs?: number;
}

/** Probes one client until stopped; `lost` is called once, with the reason. */
export class HealthProbe {
  readonly #client: Client;
  readonly #intervalMs: number;
  readonly #timeoutMs: number;
  readonly #lost: (reason: string) => void;
  readonly #stop = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(init: { client: Client; policy: HealthPolicy; http: boolean; lost: (reason: string) => void }) {
    this.#client = init.client;
    const interval = init.policy.intervalMs ?? (init.http ? 30_000 : 0);
    this.#intervalMs = interval > 0 ? Math.max(100, interval) : 0;
    this.#timeoutMs = Math.max(1, Math.min(init.policy.timeoutMs ?? 10_000, this.#intervalMs));
    this.#lost = init.lost;
    this.#schedule();
  }

  /** Stops probing (the connection is being closed or replaced). */
  stop(): void {
    this.#stop.abort();
    clearTimeout(this.#timer);
  }

  #schedule(): void {
    if (this.#intervalMs === 0 || this.#stop.signal.aborted) return;
    this.#timer = setTimer(() => void this.#probe(), this.#intervalMs);
    this.#timer?.unref?.();
  }

  async #probe(): Promise<void> {
    const options = { timeoutMs: this.#timeoutMs, signal: this.#stop.signal };
    try {
      if (this.#client.era === 'modern') await this.#client.discover(options);
      else await this.#client.ping(options);
    } catch (error) {
      // A JSON-RPC error is an answer: the server is there.
      if (this.#stop.signal.aborted || error instanceof WireError) return this.#schedule();
      this.stop();
      return this.#lost(`health check failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.#schedule();
  }
}
