/**
 * Sealing of MRTR `requestState`: AES-256-GCM (confidentiality and integrity) with a key
 * ring for rotation, bound to the principal, the method and a digest of the salient
 * params, with an expiry. Tampered, expired, cross-request or cross-principal state fails
 * to open. Web Crypto only, so it runs anywhere.
 * Source: 2026-07-28 basic/patterns/mrtr "Server Requirements" (integrity, replay bounds).
 */
import { LocalError } from './errors.js';

/** One key of the ring: a 32-byte secret and the id written into sealed state. */
export interface StateKey {
  /** Short identifier (letters, digits, `-`, `_`), written in the clear so rotation works. */
  id: string;
  /** 32 bytes of secret; the same on every instance of a fleet. */
  secret: Uint8Array;
}

/** What sealed state is bound to; opening with a different binding fails. */
export interface StateBinding {
  /** The authenticated principal, or "" for anonymous callers. */
  principal: string;
  /** The request method, e.g. `tools/call`. */
  method: string;
  /** Digest of the params that identify the request (see {@link digestParams}). */
  digest: string;
}

/** Seals and opens `requestState` values. */
export interface RequestStateSealer {
  seal(payload: unknown, binding: StateBinding): Promise<string>;
  /**
   * @throws LocalError `INVALID_ARGUMENT` for state that is tampered, expired, foreign,
   *   unknown-key, or longer than {@link maxStateChars}.
   */
  open(state: string, binding: StateBinding): Promise<unknown>;
  /**
   * Longest `requestState` accepted, in characters (default {@link DEFAULT_MAX_STATE_CHARS}):
   * a longer one is refused before any decoding or cryptography, and a state that would
   * seal longer is not issued.
   */
  readonly maxStateChars?: number;
}

/**
 * Default longest `requestState`, in characters (1 MiB; the state is ASCII, so also bytes):
 * the answers sealed so far, with room for sampling results, at a bounded cost to open.
 */
export const DEFAULT_MAX_STATE_CHARS = 1024 * 1024;

/** Options of {@link createStateSealer}. */
export interface SealerOptions {
  /** The ring: the first key seals, every key opens. Default: one random key for this process. */
  keys?: readonly StateKey[];
  /** Lifetime of sealed state in milliseconds (default 10 minutes). */
  ttlMs?: number;
  /** Clock, for tests (milliseconds since the epoch). */
  now?: () => number;
  /** Longest `requestState` accepted or issued, in characters (default 1 MiB); see {@link RequestStateSealer.maxStateChars}. */
  maxStateChars?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function b64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// Only the canonical base64url text of the bytes is accepted: atob alone would also take
// `+`, `/`, whitespace and other trailing bits, so one state would have many spellings.
function fromB64url(text: string): Uint8Array<ArrayBuffer> {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(s, (c) => c.charCodeAt(0));
  if (b64url(bytes) !== text) throw new LocalError('INVALID_ARGUMENT', 'not canonical base64url');
  return bytes;
}

/** A fresh random key (for tests, or to print one for a fleet's configuration). */
export function generateStateKey(id = 'k1'): StateKey {
  return { id, secret: crypto.getRandomValues(new Uint8Array(32)) };
}

/** Canonical JSON (sorted keys) so equal params give equal digests. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 (base64url) of the canonical JSON of `value`. */
export async function digestParams(value: unknown): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', encoder.encode(canonicalJson(value)));
  return b64url(new Uint8Array(hash));
}

function rejectState(why: string): LocalError {
  return new LocalError('INVALID_ARGUMENT', `Invalid requestState: ${why}`);
}

/**
 * Creates a sealer over a key ring.
 * @throws LocalError `INVALID_ARGUMENT` when a key is not 32 bytes or has a bad id.
 */
export function createStateSealer(options: SealerOptions = {}): RequestStateSealer {
  const keys = options.keys ?? [{ id: 'local', secret: new Uint8Array(32) }]; // secret drawn on first use
  const ttlMs = options.ttlMs ?? 600_000;
  const now = options.now ?? Date.now;
  const maxStateChars = options.maxStateChars ?? DEFAULT_MAX_STATE_CHARS;
  if (!(maxStateChars >= 1)) throw new RangeError('requestState.maxStateChars must be at least 1');
  for (const k of keys) {
    if (k.secret.length !== 32 || !/^[A-Za-z0-9_-]+$/.test(k.id))
      throw rejectState(`key '${k.id}' must have a 32-byte secret and a plain id`);
  }
  const first = keys[0];
  if (!first) throw rejectState('the key ring is empty');
  // Web Crypto starts on the first seal or open: a server that never seals state never pays its memory.
  let ring: Map<string, Promise<CryptoKey>> | undefined;
  const imported = (): Map<string, Promise<CryptoKey>> => {
    if (ring) return ring;
    if (!options.keys) crypto.getRandomValues(first.secret);
    const importKey = (k: StateKey): Promise<CryptoKey> =>
      crypto.subtle.importKey('raw', new Uint8Array(k.secret), 'AES-GCM', false, ['encrypt', 'decrypt']);
    return (ring = new Map(keys.map((k) => [k.id, importKey(k)])));
  };
  const aad = (b: StateBinding): Uint8Array<ArrayBuffer> =>
    encoder.encode(canonicalJson([b.principal, b.method, b.digest]));

  return {
    async seal(payload, binding) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const plain = encoder.encode(JSON.stringify({ x: now() + ttlMs, p: payload }));
      const key = await imported().get(first.id)!;
      const sealed = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: aad(binding) },
        key,
        plain,
      );
      const state = `v1.${first.id}.${b64url(iv)}.${b64url(new Uint8Array(sealed))}`;
      if (state.length > maxStateChars) throw tooLong(maxStateChars);
      return state;
    },
    maxStateChars,
    async open(state, binding) {
      if (state.length > maxStateChars) throw tooLong(maxStateChars);
      const [version, kid, iv, body, extra] = state.split('.');
      if (version !== 'v1' || !kid || !iv || !body || extra !== undefined)
        throw rejectState('not a state this server issued');
      const key = imported().get(kid);
      if (!key) throw rejectState('sealed with an unknown key');
      const plain = await decrypt(await key, { iv, body }, aad(binding));
      const { x, p } = JSON.parse(decoder.decode(plain)) as { x: number; p: unknown };
      if (now() > x) throw rejectState('expired');
      return p;
    },
  };
}

function tooLong(max: number): LocalError {
  return rejectState(`it is longer than ${max} characters (requestState.maxStateChars)`);
}

async function decrypt(
  key: CryptoKey,
  { iv, body }: { iv: string; body: string },
  additionalData: Uint8Array<ArrayBuffer>,
): Promise<ArrayBuffer> {
  try {
    return await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromB64url(iv), additionalData },
      key,
      fromB64url(body),
    );
  } catch {
    throw rejectState('it was altered, or belongs to another request or caller');
  }
}
