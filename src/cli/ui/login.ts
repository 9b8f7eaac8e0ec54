/**
 * The inspector's OAuth login for a Streamable HTTP target: mcpkit/auth's authorization code
 * flow with PKCE (discovery, a configured client id or registration, the resource indicator),
 * redirected back to the inspector's own listener at `/callback`. The web app only ever sees
 * the authorization URL and whether a login holds; tokens stay in this process and in the
 * CLI's token store, so `mcpkit login` and the inspector share them.
 * Source: 2026-07-28 basic/authorization; RFC 8252 §7.3 (loopback redirect).
 */
import { timingSafeEqual } from 'node:crypto';
import { AuthError, oauthClient, type AuthStore, type OAuthClient } from '../../auth/index.js';
import type { FetchWrapper } from '../../client/index.js';

/** Longest wait for the browser to come back to `/callback`, in milliseconds. */
const CALLBACK_WAIT_MS = 10 * 60_000;

/** What the web app is told about authorization for the current target. */
export interface LoginState {
  /** The server asked for authorization and no login holds. */
  required: boolean;
  loggedIn: boolean;
  /** The scopes granted (never the token). */
  scopes?: string[];
  /** When the access token expires, in ms since the epoch, if the server said. */
  expiresAt?: number;
}

/** Options of {@link InspectorLogin}. */
export interface InspectorLoginOptions {
  /** The inspector's own callback URL, `http://127.0.0.1:PORT/callback`. */
  redirectUri: string;
  /** Where registrations and tokens are kept. */
  store: AuthStore;
}

interface Waiting {
  state: string;
  resolve: (callback: URL) => void;
  reject: (error: Error) => void;
}

/** Whether `error` came from mcpkit/auth (anywhere in its cause chain). */
function fromAuthorization(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++)
    if (e instanceof AuthError) return true;
  return false;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** One OAuth client per target URL and client id, and the login that may be in progress. */
export class InspectorLogin {
  readonly #options: InspectorLoginOptions;
  #key: string | undefined;
  #client: OAuthClient | undefined;
  #waiting: Waiting | undefined;
  /** Set while a login started from the page runs; a connection alone never waits for a person. */
  #shown: ((url: URL) => void) | undefined;
  /** Set while connected: a call that meets a challenge (step-up, expiry) asks the person. */
  #attended: ((url: URL) => void) | undefined;
  #flight: Promise<void> | undefined;
  #state: LoginState = { required: false, loggedIn: false };
  /** Why authorization failed unattended (discovery, registration...), for the panel. */
  #failure: string | undefined;

  constructor(options: InspectorLoginOptions) {
    this.#options = options;
  }

  /** The OAuth client for `url` (kept while the URL and client id stay the same). */
  clientFor(url: string, clientId?: string): OAuthClient {
    const key = JSON.stringify([url, clientId ?? '']);
    if (this.#client && this.#key === key) return this.#client;
    this.#abandon('the target changed');
    this.#key = key;
    this.#state = { required: false, loggedIn: false };
    this.#client = oauthClient({
      clientName: 'mcpkit inspector',
      redirectUri: this.#options.redirectUri,
      store: this.#options.store,
      ...(clientId ? { credentials: { clientId } } : {}),
      redirect: (authorizationUrl) => this.#redirect(authorizationUrl),
    });
    return this.#client;
  }

  /**
   * The fetch wrapper for a transport to `url`: the OAuth client of {@link clientFor}, noting
   * an authorization failure of a connection (the transport passes on only its message).
   */
  authFor(url: string, clientId?: string): FetchWrapper {
    const client = this.clientFor(url, clientId);
    return {
      wrapFetch: (fetcher, endpoint) => {
        const inner = client.wrapFetch(fetcher, endpoint);
        return async (input, init) => {
          try {
            return await inner(input, init);
          } catch (error) {
            if (error instanceof AuthError && !this.#attended) this.#unattended(error);
            throw error;
          }
        };
      },
    };
  }

  #unattended(error: AuthError): void {
    this.markRequired();
    if (error.code !== 'INTERACTION_REQUIRED') this.#failure = error.message;
  }

  /**
   * A failed connection to `url` said plainly when authorization was the reason: the OAuth
   * client met a 401 it cannot answer without the person, or mcpkit/auth failed (discovery,
   * registration). Any other error is returned unchanged.
   */
  explain(url: string, error: unknown): unknown {
    const direct = fromAuthorization(error);
    if (!this.#state.required && !direct) return error;
    this.markRequired();
    const why = this.#failure ?? (direct && error instanceof Error ? error.message : 'log in to reach it');
    return new Error(`${url} needs authorization: ${why}`, { cause: error });
  }

  /** What the web app shows. */
  state(): LoginState {
    return this.#state;
  }

  /** Re-reads whether tokens are held (after a connection used or refreshed them). */
  async refresh(): Promise<void> {
    const status = await this.#client?.status();
    if (!status) return;
    this.#state = {
      required: false,
      loggedIn: true,
      scopes: status.scopes,
      ...(status.expiresAt ? { expiresAt: status.expiresAt } : {}),
    };
  }

  /**
   * Starts the code flow for `url`. Resolves with the authorization URL once the flow needs
   * the person; `done` settles when the browser came back and the tokens were obtained.
   * @throws AuthError when discovery, registration or the authorization server fails first.
   */
  async start(url: string, clientId?: string): Promise<{ authorizationUrl: URL; done: Promise<void> }> {
    const client = this.clientFor(url, clientId);
    this.#abandon('a new login started');
    const shown = new Promise<URL>((resolve) => (this.#shown = resolve));
    const flight = client.login(new URL(url)).finally(() => {
      if (this.#flight === flight)
        [this.#shown, this.#waiting, this.#flight] = [undefined, undefined, undefined];
    });
    this.#flight = flight;
    const first = await Promise.race([shown, flight.then(() => undefined)]);
    const done = flight.then(() => this.refresh());
    done.catch(() => undefined);
    return { authorizationUrl: first ?? new URL(url), done };
  }

  /**
   * The browser came back to `/callback` with `query`. Only the login in progress, with
   * the same `state`, is answered; anything else is refused and ends that login.
   * Resolves with what the callback page says, once the login ended.
   */
  async callback(query: URLSearchParams): Promise<{ status: number; text: string }> {
    const waiting = this.#waiting;
    const flight = this.#flight;
    if (!waiting) return { status: 400, text: 'No login is waiting for this callback.' };
    this.#waiting = undefined; // one answer per login: a replayed callback finds nothing
    const state = query.get('state') ?? '';
    if (!sameSecret(state, waiting.state)) {
      waiting.reject(new Error('the callback did not carry the state of the login in progress (refused)'));
      return { status: 400, text: 'Refused: the state does not match the login in progress.' };
    }
    waiting.resolve(new URL(`${this.#options.redirectUri}?${query.toString()}`));
    if (!flight) return { status: 200, text: 'Authorization received. You can close this tab.' };
    try {
      await flight;
      return { status: 200, text: 'Logged in. You can close this tab and go back to the inspector.' };
    } catch (error) {
      return { status: 400, text: `Login failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  /**
   * While connected: when a request meets a challenge the tokens cannot answer (a scope
   * step-up, an expired login), `ask` gets the authorization URL and the request waits for
   * the browser to come back to `/callback`.
   */
  attend(ask: (authorizationUrl: URL) => void): void {
    this.#attended = ask;
  }

  /** Back to failing such requests (when disconnected or connecting). */
  unattend(): void {
    this.#attended = undefined;
  }

  /** Records that the server asked for authorization that could not be obtained unattended. */
  markRequired(): void {
    this.#state = { required: true, loggedIn: false };
  }

  /** Before a new connection: whether authorization is required is found out again. */
  resetRequired(): void {
    this.#failure = undefined;
    if (this.#state.required) this.#state = { required: false, loggedIn: false };
  }

  /** Forgets the tokens of the current target, here and in the store. */
  async logout(): Promise<void> {
    this.#abandon('logged out');
    await this.#client?.logout();
    this.#state = { required: false, loggedIn: false };
  }

  /** The flow reached the person: wait for the callback if the page asked for a login. */
  #redirect(authorizationUrl: URL): Promise<URL> | undefined {
    const shown = this.#shown ?? this.#attended;
    if (!shown) {
      // A connection met a 401: tell the page, fail that request (INTERACTION_REQUIRED).
      this.markRequired();
      return undefined;
    }
    this.#abandon('another authorization started');
    return new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('no answer from the browser within 10 minutes')),
        CALLBACK_WAIT_MS,
      );
      timer.unref();
      const settle =
        <T>(fn: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          fn(value);
        };
      this.#waiting = {
        state: authorizationUrl.searchParams.get('state') ?? '',
        resolve: settle(resolve),
        reject: settle(reject),
      };
      shown(authorizationUrl);
    });
  }

  #abandon(reason: string): void {
    this.#waiting?.reject(new Error(`login abandoned: ${reason}`));
    this.#waiting = undefined;
    this.#shown = undefined;
  }
}
