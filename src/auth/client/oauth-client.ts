/**
 * The OAuth client as a wrapper around the HTTP transport's fetch: it adds the access
 * token (Bearer, or DPoP with a fresh proof per request) to requests for the MCP endpoint's
 * origin only, and answers the server's challenges: a 401 runs discovery and authorization
 * (or a refresh) and retries; a 403 `insufficient_scope` re-authorizes with the union of
 * the old and new scopes, a bounded number of times; a DPoP `use_dpop_nonce` is retried
 * with the server's nonce. Concurrent requests share one refresh or authorization.
 * Source: 2026-07-28 basic/authorization "Access Token Usage", "Scope Challenge Handling".
 */
import * as oauth from 'oauth4webapi';
import { type AuthChallenge, authChallengeOf } from './challenge.js';
import { LocalError } from '../../core/index.js';
import { AuthError } from '../errors.js';
import { Authorizer } from './authorizer.js';
import type { OAuthClientOptions } from './options.js';
import type { StoredTokens } from './store.js';

/** Refresh this long before the access token's stated expiry, in milliseconds. */
const EXPIRY_MARGIN_MS = 30_000;
/** Bound on the send/answer rounds of one request. */
const MAX_ROUNDS = 6;

/** One request's progress through the challenges it met. */
interface Round {
  recoveries: number;
  stepUps: number;
  nonce: boolean;
}

/** One request to the protected endpoint, through the authorizer of this client. */
interface Call {
  a: Authorizer;
  fetcher: typeof fetch;
  url: URL;
  init: RequestInit;
}

/** A 401/403 answer, with the challenge it carried and the tokens it refused. */
interface Refusal {
  status: number;
  challenge: AuthChallenge | undefined;
  used: StoredTokens | undefined;
}

/** An OAuth client for one MCP endpoint. Pass it as `streamableHttp(url, { auth })`. */
export class OAuthClient {
  readonly #options: OAuthClientOptions;
  #authorizer: Authorizer | undefined;
  #flight: Promise<void> | undefined;

  constructor(options: OAuthClientOptions = {}) {
    this.#options = options;
  }

  /**
   * Wraps `fetch` for the MCP endpoint `endpoint` (the HTTP transport calls this once).
   * Requests to other origins pass through untouched and never carry a token.
   */
  wrapFetch(fetcher: typeof fetch, endpoint: URL): typeof fetch {
    this.#authorizer ??= new Authorizer(this.#options, endpoint, fetcher);
    const authorizer = this.#authorizer;
    return async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.origin !== endpoint.origin) return fetcher(input, init);
      return this.#request({ a: authorizer, fetcher, url, init: init ?? {} });
    };
  }

  /**
   * Completes an authorization code flow that was left to the user: `callback` is the
   * redirect URI the browser came back to. Later requests carry the new token.
   * @throws AuthError `AUTHORIZATION_REJECTED` (state or iss mismatch, an error answer) or
   *   `TOKEN_REQUEST_FAILED`.
   */
  async finishAuth(callback: string | URL): Promise<void> {
    await this.#need().finishAuth(new URL(callback));
  }

  /** The current access token's scopes and expiry, without the token itself. */
  async status(): Promise<{ scopes: string[]; expiresAt?: number; type: string } | undefined> {
    const t = await this.#authorizer?.tokens();
    return (
      t && { scopes: t.scopes, type: t.token_type, ...(t.expires_at ? { expiresAt: t.expires_at } : {}) }
    );
  }

  /** Forgets the tokens for the endpoint, in memory and in the store. */
  async logout(): Promise<void> {
    await this.#authorizer?.forget();
  }

  /**
   * Obtains tokens now instead of waiting for the server's first 401: the same discovery
   * and grant, without a challenge.
   */
  async login(endpoint: URL, fetcher: typeof fetch = (i, o) => fetch(i, o)): Promise<void> {
    this.#authorizer ??= new Authorizer(this.#options, endpoint, fetcher);
    await this.#authorizer.authorize(undefined);
  }

  #need(): Authorizer {
    if (!this.#authorizer)
      throw new LocalError('NOT_READY', 'the OAuth client is not attached to a transport yet');
    return this.#authorizer;
  }

  async #request(call: Call): Promise<Response> {
    const { a } = call;
    const round: Round = { recoveries: 0, stepUps: 0, nonce: false };
    for (let i = 0; ; i++) {
      await this.#freshen(a);
      const used = await a.tokens();
      const response = await this.#send(call, used);
      if ((response.status !== 401 && response.status !== 403) || i >= MAX_ROUNDS) return response;
      const challenge = authChallengeOf(response.headers);
      const next = this.#answer(a, { status: response.status, challenge, used }, round);
      if (!next) return response;
      try {
        await next;
      } catch (error) {
        // A 401 without a Bearer/DPoP challenge from a server with no OAuth metadata at all
        // is not OAuth: hand it to the transport as it came.
        if (!challenge && error instanceof AuthError && error.code === 'DISCOVERY_FAILED') return response;
        await response.body?.cancel().catch(() => undefined);
        throw error;
      }
      await response.body?.cancel().catch(() => undefined);
    }
  }

  /** What to do about a 401/403, or undefined to hand the response to the transport. */
  #answer(a: Authorizer, refusal: Refusal, round: Round): Promise<void> | undefined {
    const { status, challenge, used } = refusal;
    if (status === 401 && challenge?.error === 'use_dpop_nonce' && used && !round.nonce) {
      round.nonce = true;
      return Promise.resolve();
    }
    if (status === 401) {
      if (round.recoveries >= 2) return undefined;
      const full = round.recoveries++ > 0;
      return this.#once(used, async () => {
        if (!full && used && (await a.refresh(used))) return;
        await a.authorize(challenge, used?.scopes ?? []);
      });
    }
    if (challenge?.error !== 'insufficient_scope') return undefined;
    if (round.stepUps >= (this.#options.maxStepUps ?? 2)) return undefined;
    round.stepUps++;
    return this.#once(used, () => a.authorize(challenge, used?.scopes ?? []));
  }

  /** Refreshes ahead of a known expiry, shared by concurrent requests. */
  async #freshen(a: Authorizer): Promise<void> {
    if (this.#flight) await this.#flight.catch(() => undefined);
    const t = await a.tokens();
    if (!t?.refresh_token || t.expires_at === undefined || t.expires_at - EXPIRY_MARGIN_MS > Date.now())
      return;
    await this.#once(t, async () => void (await a.refresh(t))).catch(() => undefined);
  }

  /** Runs `task` unless the tokens changed since `used` was read; concurrent callers share it. */
  async #once(used: StoredTokens | undefined, task: () => Promise<void>): Promise<void> {
    // Checked and set without an await in between, so concurrent callers cannot both start.
    if (this.#flight) return this.#flight;
    if (this.#authorizer?.current !== used) return;
    this.#flight = task().finally(() => (this.#flight = undefined));
    return this.#flight;
  }

  async #send({ a, fetcher, url, init }: Call, used?: StoredTokens) {
    const headers = new Headers(init.headers);
    headers.delete('authorization');
    headers.delete('dpop');
    if (!used || !a.insecureOk(url)) return fetcher(url, { ...init, headers });
    const dpop = await a.dpopFor(used);
    if (!dpop) {
      headers.set('authorization', `Bearer ${used.access_token}`);
      return fetcher(url, { ...init, headers });
    }
    try {
      return await oauth.protectedResourceRequest(
        used.access_token,
        init.method ?? 'GET',
        url,
        headers,
        init.body as oauth.ProtectedResourceRequestBody,
        {
          DPoP: dpop,
          ...(init.signal ? { signal: init.signal } : {}),
          [oauth.customFetch]: (
            u: string,
            o: oauth.CustomFetchOptions<string, oauth.ProtectedResourceRequestBody>,
          ) => fetcher(u, o as RequestInit),
          [oauth.allowInsecureRequests]: true,
        },
      );
    } catch (error) {
      if (error instanceof oauth.WWWAuthenticateChallengeError) return error.response;
      throw error;
    }
  }
}

/**
 * An OAuth client for `streamableHttp(url, { auth: oauthClient(options) })`: discovery,
 * client identity, the configured grant, refresh, step-up and DPoP, on the server's
 * challenges. See {@link OAuthClientOptions}.
 */
export function oauthClient(options: OAuthClientOptions = {}): OAuthClient {
  return new OAuthClient(options);
}
