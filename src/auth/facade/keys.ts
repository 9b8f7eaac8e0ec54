/**
 * The façade's keys, derived from one secret (HKDF-SHA-256, WebCrypto): an HMAC key that
 * signs the access tokens it issues and its consent cookie (jose, HS256), and an AES-256-GCM
 * key that encrypts the upstream tokens it keeps (jose compact JWE, `dir` + `A256GCM`). A
 * fleet shares the secret, so any instance verifies and decrypts what another wrote.
 * Source: 2026-07-28 basic/authorization/security-considerations "Token Theft" (secure
 * token storage); RFC 9068 (JWT access tokens).
 */
import { base64url, compactDecrypt, CompactEncrypt, jwtVerify, SignJWT, type JWTPayload } from 'jose';

/** The two keys of one secret. */
export interface FacadeKeys {
  sign: Uint8Array;
  encrypt: Uint8Array;
}

async function derive(secret: Uint8Array, info: string): Promise<Uint8Array> {
  const base = await crypto.subtle.importKey('raw', secret as BufferSource, 'HKDF', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new TextEncoder().encode(info) },
    base,
    256,
  );
  return new Uint8Array(bits);
}

/**
 * Derives the keys of `secret` (at least 32 bytes of entropy: 32 random bytes, or a string of
 * at least 32 characters); a random secret when none is given (one process only).
 * @throws TypeError for a shorter secret.
 */
export async function deriveKeys(secret: string | Uint8Array | undefined): Promise<FacadeKeys> {
  const raw =
    secret === undefined
      ? crypto.getRandomValues(new Uint8Array(32))
      : typeof secret === 'string'
        ? new TextEncoder().encode(secret)
        : secret;
  if (raw.byteLength < 32) throw new TypeError('the façade secret must be at least 32 bytes long');
  return {
    sign: await derive(raw, 'mcpkit façade: sign'),
    encrypt: await derive(raw, 'mcpkit façade: encrypt'),
  };
}

/** Encrypts `plaintext` for storage (compact JWE). */
export function seal(keys: FacadeKeys, plaintext: string): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(plaintext))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .encrypt(keys.encrypt);
}

/** Decrypts what {@link seal} wrote. @throws jose's error when it was altered or sealed with another key. */
export async function unseal(keys: FacadeKeys, jwe: string): Promise<string> {
  const { plaintext } = await compactDecrypt(jwe, keys.encrypt, {
    keyManagementAlgorithms: ['dir'],
    contentEncryptionAlgorithms: ['A256GCM'],
  });
  return new TextDecoder().decode(plaintext);
}

/** Signs `claims` as a JWT of type `typ`, valid for `ttlSec` seconds. */
export function signJwt(
  keys: FacadeKeys,
  claims: JWTPayload,
  to: { typ: string; ttlSec: number },
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: to.typ })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + to.ttlSec)
    .sign(keys.sign);
}

/** Verifies a JWT {@link signJwt} made. @throws jose's error when invalid or expired. */
export async function verifyJwt(
  keys: FacadeKeys,
  token: string,
  expect: { typ: string; issuer?: string; audience?: string },
): Promise<JWTPayload> {
  const { payload } = await jwtVerify(token, keys.sign, {
    algorithms: ['HS256'],
    typ: expect.typ,
    requiredClaims: ['exp'],
    ...(expect.issuer ? { issuer: expect.issuer } : {}),
    ...(expect.audience ? { audience: expect.audience } : {}),
  });
  return payload;
}

/** A random identifier: `bytes` random bytes, base64url. */
export function randomId(bytes = 32): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** The SHA-256 of `text`, base64url (store keys of secrets: a leaked store holds no usable code or token). */
export async function digest(text: string): Promise<string> {
  return base64url.encode(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))),
  );
}
