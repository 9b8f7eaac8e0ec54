/**
 * `sessionObject`: the Durable Object class that holds one legacy session of a Worker made by
 * `createWorker` (its `sessions` option names this class's binding). Every request of the
 * session (its POSTs, the GET stream, the DELETE, the answers to server-initiated requests
 * such as an elicitation) reaches this one object, so the session works across isolates.
 * The `Mcp-Session-Id` the client sees is `<object id>.<session id>`.
 * Source: 2025-11-25 basic/transports "Session Management".
 */
import { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from '../../server/http/index.js';
import type { DurableObjectState } from './types.js';
import { clientAddress, errorAnswer, serverOf, type ServerSource, type WorkerEnv } from './worker.js';

/** The shape of the class {@link sessionObject} returns, as wrangler instantiates it. */
export interface SessionObjectClass {
  new (state: DurableObjectState, env: WorkerEnv): { fetch(request: Request): Promise<Response> };
}

/**
 * Makes the session Durable Object class of `server`; export it from the Worker module under
 * the class name the wrangler config binds (`durable_objects.bindings[].class_name`).
 * `options` as for `createWorker` (they must agree with the Worker's). A session whose object
 * was evicted is gone: its next request gets 404, and the client opens a new session.
 */
export function sessionObject(
  server: ServerSource,
  options: HttpHandlerOptions | ((env: WorkerEnv) => HttpHandlerOptions) = {},
): SessionObjectClass {
  const definition = serverOf(server);
  return class McpSessionObject {
    readonly #prefix: string;
    readonly #env: WorkerEnv;
    #handler: HttpHandler | undefined;

    constructor(state: DurableObjectState, env: WorkerEnv) {
      this.#prefix = `${state.id.toString()}.`;
      this.#env = env;
    }

    /** Serves one request of this object's session, its session id translated both ways. */
    async fetch(request: Request): Promise<Response> {
      const handler = (this.#handler ??= this.#build());
      const outer = request.headers.get('mcp-session-id');
      let inner = request;
      if (outer !== null) {
        if (!outer.startsWith(this.#prefix)) return errorAnswer('SessionNotFound', 'Session not found');
        const headers = new Headers(request.headers);
        headers.set('mcp-session-id', outer.slice(this.#prefix.length));
        inner = new Request(request, { headers });
      }
      const response = await handler(inner, { remoteAddress: clientAddress(request) });
      const session = response.headers.get('mcp-session-id');
      if (session === null) return response;
      const headers = new Headers(response.headers);
      headers.set('mcp-session-id', this.#prefix + session);
      return new Response(response.body, {
        status: response.status,
        statusText: response.statusText,
        headers,
      });
    }

    #build(): HttpHandler {
      const chosen = typeof options === 'function' ? options(this.#env) : options;
      return createHttpHandler(definition(this.#env), { bindAddress: '0.0.0.0', ...chosen, maxSessions: 1 });
    }
  };
}
