/**
 * Checking DPoP proofs at the resource server (RFC 9449 §4.3, §7): the proof is a JWT of
 * type `dpop+jwt`, signed by the public key in its header with an allowed algorithm, for
 * this method and URL (`htm`, `htu`), recent (`iat`), never seen before (`jti`), bound to
 * the access token (`ath`), and its key is the one the token is bound to (`cnf.jkt`).
 * Source: RFC 9449 §4.2–4.3, §6, §7.1; extensions DPoP.
 */
import {
  base64url,
  calculateJwkThumbprint,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  type JWK,
} from 'jose';
import { AuthError } from '../errors.js';

/** Algorithms accepted for proofs by default. */
export const DPOP_ALGORITHMS = ['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA'];
/** How far a proof's `iat` may be from now, in seconds. */
const IAT_WINDOW_SEC = 300;

/** Remembers proof ids until they could no longer be accepted anyway. */
export class ReplayCache {
  readonly #seen = new Map<string, number>();
  readonly #max: number;

  constructor(max = 10_000) {
    this.#max = max;
  }

  /** False when `jti` was seen in the window; records it otherwise. */
  firstUse(jti: string): boolean {
    const now = Date.now();
    for (const [id, until] of this.#seen) {
      if (until > now && this.#seen.size < this.#max) break;
      this.#seen.delete(id);
    }
    if (this.#seen.has(jti)) return false;
    this.#seen.set(jti, now + 2 * IAT_WINDOW_SEC * 1000);
    return true;
  }
}

/** What a proof is checked against. */
export interface ProofCheck {
  proof: string | null;
  method: string;
  url: string;
  token: string;
  /** The thumbprint the token is bound to (`cnf.jkt`). */
  jkt: string | undefined;
  algorithms: string[];
  replay: ReplayCache;
}

const bad = (why: string) => new AuthError('INVALID_TOKEN', `invalid DPoP proof: ${why}`);

function htuOf(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

/**
 * Checks a DPoP proof for a request carrying a DPoP-bound token.
 * @throws AuthError `INVALID_TOKEN` naming what is wrong (never the token or the proof).
 */
export async function checkProof(c: ProofCheck): Promise<void> {
  if (!c.proof || c.proof.includes(',')) throw bad('exactly one DPoP header is required');
  if (!c.jkt) throw bad('the access token is not DPoP-bound');
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(c.proof);
  } catch {
    throw bad('not a JWT');
  }
  const jwk = header.jwk as JWK | undefined;
  if (header.typ !== 'dpop+jwt' || !header.alg || !c.algorithms.includes(header.alg))
    throw bad('wrong typ or alg');
  if (!jwk || 'd' in jwk) throw bad('the header must carry a public jwk');
  let payload: Record<string, unknown>;
  try {
    payload = (await jwtVerify(c.proof, await importJWK(jwk, header.alg), { algorithms: c.algorithms }))
      .payload;
  } catch {
    throw bad('the signature does not verify');
  }
  await checkClaims(c, payload, jwk);
}

async function checkClaims(c: ProofCheck, p: Record<string, unknown>, jwk: JWK): Promise<void> {
  if (p.htm !== c.method) throw bad('htm does not match the request method');
  if (typeof p.htu !== 'string' || !URL.canParse(p.htu) || htuOf(p.htu) !== htuOf(c.url))
    throw bad('htu does not match the request URL');
  if (typeof p.iat !== 'number' || Math.abs(Date.now() / 1000 - p.iat) > IAT_WINDOW_SEC)
    throw bad('iat is too old or in the future');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(c.token));
  if (p.ath !== base64url.encode(new Uint8Array(digest))) throw bad('ath does not match the access token');
  if ((await calculateJwkThumbprint(jwk, 'sha256')) !== c.jkt)
    throw bad('the key is not the one the token is bound to');
  if (typeof p.jti !== 'string' || p.jti.length > 256 || !c.replay.firstUse(p.jti))
    throw bad('jti is missing or was used before');
}
