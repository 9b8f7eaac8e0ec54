/**
 * Recovering a legacy Streamable HTTP session the server lost (it restarted, or expired
 * the session): a 404 to a request carrying `Mcp-Session-Id` means the session is gone,
 * and the client MUST start a new one with a fresh `initialize` that carries no session
 * id. The renewal replays the client's own `initialize` (same capabilities, client info
 * and version), `notifications/initialized`, and the session state the client had set up
 * (`logging/setLevel`, `resources/subscribe`), so the client above sees one continuous
 * connection. A request the server refused with that 404 never ran, so it is safe to send
 * once more on the new session.
 * Source: 2025-11-25 basic/transports "Session Management" items 3–4; basic/lifecycle.
 */
import type { JsonRpcMessage, JsonRpcRequest, Params } from '../../core/index.js';
import { isObject } from '../../core/runtime.js';
import { mediaTypeOf, parseObject } from './frames.js';
import type { LegacySession } from './legacy/http-session.js';
import { newCursor, readBoundedText, readSse } from './sse.js';

/** What a renewal needs from its transport. */
export interface RenewalHost {
  readonly session: LegacySession;
  /**
   * POSTs `message` with the session's current headers (and the caller's own) and hands the
   * response to `read`; the transport bounds the whole exchange, `read` included, in time.
   */
  post<T>(message: JsonRpcMessage, read: (response: Response) => Promise<T>): Promise<T>;
  /** Opens the standalone GET stream of the new session. */
  openStream(): Promise<void>;
  warn(message: string): void;
  /** Largest response body read, in bytes. */
  readonly maxMessageBytes: number;
}

/** Keeps what a new session needs, and renews the session once per loss. */
export class SessionRenewal {
  readonly #host: RenewalHost;
  #initialize: JsonRpcRequest | undefined;
  #logLevel: Params | undefined;
  readonly #subscribed = new Set<string>();
  #renewing: Promise<boolean> | undefined;
  #count = 0;
  /** True from a renewal until a request succeeds on the new session. */
  #untried = false;

  constructor(host: RenewalHost) {
    this.#host = host;
  }

  /** Notes a legacy request on its way out: the ones a new session has to repeat. */
  record(request: JsonRpcRequest): void {
    const uri = request.params?.uri;
    if (request.method === 'initialize') this.#initialize = request;
    else if (request.method === 'logging/setLevel') this.#logLevel = request.params;
    else if (request.method === 'resources/subscribe' && typeof uri === 'string') this.#subscribed.add(uri);
    else if (request.method === 'resources/unsubscribe' && typeof uri === 'string')
      this.#subscribed.delete(uri);
  }

  /** Notes that a request succeeded on the current session. */
  succeeded(): void {
    this.#untried = false;
  }

  /**
   * The GET stream of the session was refused with 404: renew, unless the session is one
   * this renewal just made and nothing has succeeded on it yet (no renewal loops).
   */
  streamLost(): void {
    if (this.#untried) return this.#host.warn('the new legacy session was refused too (HTTP 404)');
    void this.renew();
  }

  /** True when `response` says the legacy session behind a request is gone. */
  lost(response: Response, request: JsonRpcRequest): boolean {
    return (
      response.status === 404 &&
      request.method !== 'initialize' &&
      this.#host.session.hasId &&
      this.#initialize !== undefined
    );
  }

  /**
   * Starts a new session, or joins the renewal already under way (several requests may
   * meet the same 404). Resolves true once the new session is ready.
   */
  renew(): Promise<boolean> {
    this.#renewing ??= this.#run().finally(() => (this.#renewing = undefined));
    return this.#renewing;
  }

  async #run(): Promise<boolean> {
    const init = this.#initialize;
    if (!init) return false;
    this.#host.warn('the server lost the legacy session (HTTP 404); starting a new one');
    this.#host.session.reset();
    const result = await this.#ask({ ...init, id: `mcpkit-renew-${++this.#count}` }, true);
    if (!result) return false;
    const version = result.protocolVersion;
    this.#host.session.version = typeof version === 'string' ? version : undefined;
    await this.#host.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, async (response) => {
      await response.body?.cancel().catch(() => undefined);
    });
    this.#untried = true;
    void this.#host.openStream();
    await this.#replay();
    return true;
  }

  async #replay(): Promise<void> {
    const n = this.#count;
    if (this.#logLevel) await this.#ask(request(`mcpkit-renew-${n}-log`, 'logging/setLevel', this.#logLevel));
    for (const [i, uri] of [...this.#subscribed].entries()) {
      await this.#ask(request(`mcpkit-renew-${n}-sub-${i}`, 'resources/subscribe', { uri }));
    }
  }

  /** Sends one request of the renewal and returns its result, or undefined (warned) on failure. */
  async #ask(message: JsonRpcRequest, adopt = false): Promise<Params | undefined> {
    try {
      const { response, answer } = await this.#host.post(message, async (response) => {
        if (adopt && response.ok) this.#host.session.adopt(response);
        return { response, answer: await this.#answerTo(message.id, response) };
      });
      if (isObject(answer?.result)) return answer.result;
      this.#host.warn(`${message.method} on the new session failed: ${describe(response, answer)}`);
    } catch (error) {
      this.#host.warn(`${message.method} on the new session failed: ${(error as Error).message}`);
    }
    return undefined;
  }

  async #answerTo(id: string | number, response: Response): Promise<Params | undefined> {
    if (mediaTypeOf(response) !== 'text/event-stream' || !response.body) {
      return parseObject(await readBoundedText(response, this.#host.maxMessageBytes));
    }
    let answer: Params | undefined;
    const onData = (data: string): void => {
      const value = parseObject(data);
      if (value?.id === id) answer = value;
    };
    await readSse(response.body, newCursor(), {
      onData,
      stop: () => answer !== undefined,
      maxEventBytes: this.#host.maxMessageBytes,
    });
    return answer;
  }
}

function request(id: string, method: string, params: Params): JsonRpcRequest {
  return { jsonrpc: '2.0', id, method, params };
}

function describe(response: Response, answer: Params | undefined): string {
  const error = answer?.error as { message?: unknown } | undefined;
  return typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`;
}
