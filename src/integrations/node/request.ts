/**
 * node:http's request as the endpoint's {@link HttpRequest}: the one conversion of a node
 * request, used for a server (straight to the endpoint) and for a web handler (through a
 * web `Request` built from it).
 */
import { LocalError } from '../../core/index.js';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { HeaderReader } from '../../server/http/index.js';
import type { BodyResult, HttpRequest } from '../../server/http/runtime.js';
import { EagerBody } from './eager-body.js';

/**
 * Reads node's already-parsed header object (lowercase names). A repeated header's values
 * are joined with `, `, as `Headers.get` does.
 */
class NodeHeaders implements HeaderReader {
  readonly #raw: IncomingHttpHeaders;

  constructor(raw: IncomingHttpHeaders) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    const value = this.#raw[name] ?? this.#raw[name.toLowerCase()]; // callers mostly pass lower case
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const name in this.#raw) {
      const value = this.#raw[name];
      if (value !== undefined) callback(Array.isArray(value) ? value.join(', ') : value, name);
    }
  }
}

/**
 * An {@link HttpRequest} over a node request. Its signal (aborted when the client goes
 * away before the response is finished) is made on first use: most calls never ask.
 */
export class NodeRequest implements HttpRequest {
  readonly req: IncomingMessage;
  readonly #res: ServerResponse;
  #controller: AbortController | undefined;
  readonly #body: EagerBody | undefined;
  readonly headers: NodeHeaders;

  constructor(req: IncomingMessage, res: ServerResponse) {
    this.req = req;
    this.#res = res;
    this.headers = new NodeHeaders(req.headers);
    // Only POST carries a message; reading starts now (see eager-body.ts).
    this.#body = req.method === 'POST' ? new EagerBody(req) : undefined;
  }

  get signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const controller = (this.#controller = new AbortController());
    const res = this.#res;
    const gone = (): void => {
      if (!res.writableFinished) controller.abort(new LocalError('ABORTED', 'client disconnected'));
    };
    if (res.closed) gone();
    else res.once('close', gone);
    return controller.signal;
  }

  get method(): string {
    return this.req.method ?? 'GET';
  }

  get url(): string {
    return `http://${this.req.headers.host ?? 'localhost'}${this.req.url ?? '/'}`;
  }

  get remoteAddress(): string | undefined {
    return this.req.socket.remoteAddress;
  }

  body(maxBytes: number): Promise<BodyResult> {
    return this.#reader(maxBytes).read(maxBytes);
  }

  /** The whole body as bytes, or undefined when it is larger than `maxBytes` or the client went away. */
  bytes(maxBytes: number): Promise<Uint8Array | undefined> {
    return this.#reader(maxBytes).bytes(maxBytes);
  }

  #reader(maxBytes: number): EagerBody {
    return this.#body ?? new EagerBody(this.req, maxBytes);
  }

  /** The response is decided: a body not yet read is drained, no longer kept. */
  answered(): void {
    this.#body?.discard();
  }
}
