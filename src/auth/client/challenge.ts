/**
 * Reading `WWW-Authenticate` (RFC 9110 §11.6.1): a list of challenges, each a scheme with
 * either a token68 or comma-separated `name=value` parameters whose values are tokens or
 * quoted strings. The header can hold several challenges, and a non-Bearer one can come
 * first. Malformed input never throws: parsing stops at the first thing it cannot read
 * and keeps what came before.
 * Source: RFC 9110 §11.6.1; RFC 6750 §3; RFC 9728 §5.1; RFC 9449 §7.1.
 */
import { setOwn } from '../../core/runtime.js';

/** One challenge: the scheme in lower case and its parameters (names in lower case). */
export interface Challenge {
  scheme: string;
  params: Record<string, string>;
  token68?: string;
}

/** What a client needs from the Bearer or DPoP challenge of a 401/403. */
export interface AuthChallenge {
  /** `bearer` or `dpop`. */
  scheme: string;
  /** The `resource_metadata` URL (RFC 9728 §5.1), when present and a valid URL. */
  resourceMetadata?: URL;
  /** The scopes of the `scope` parameter, when present. */
  scope?: string[];
  /** The `error` parameter (`invalid_token`, `insufficient_scope`, `use_dpop_nonce`…). */
  error?: string;
}

/** Longest header read; anything beyond is ignored. */
const MAX_HEADER = 8192;
const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y;
const TOKEN68 = /[A-Za-z0-9\-._~+/]+=*(?=\s*(,|$))/y;
const QUOTED = /"((?:[^"\\]|\\[\s\S])*)"/y;
const SPACE = /[\s,]*/y;
const PARAM_START = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+\s*=(?!=)/y;

function at(re: RegExp, text: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(text);
}

function skip(text: string, pos: number): number {
  return pos + (at(SPACE, text, pos)?.[0].length ?? 0);
}

/** Reads `name = value` at `pos`; returns undefined when it is not a parameter. */
function readParam(text: string, pos: number): { name: string; value: string; end: number } | undefined {
  if (!at(PARAM_START, text, pos)) return undefined;
  const name = at(TOKEN, text, pos)![0];
  let p = text.indexOf('=', pos + name.length) + 1;
  while (text[p] === ' ' || text[p] === '\t') p++;
  const quoted = at(QUOTED, text, p);
  if (quoted) return { name, value: quoted[1]!.replace(/\\([\s\S])/g, '$1'), end: p + quoted[0].length };
  const token = at(TOKEN, text, p);
  return token ? { name, value: token[0], end: p + token[0].length } : undefined;
}

/** Reads the parameters (or token68) of one challenge starting at `pos`. */
function readBody(text: string, pos: number, challenge: Challenge): number {
  const t68 = at(TOKEN68, text, pos);
  if (t68 && !at(PARAM_START, text, pos)) {
    challenge.token68 = t68[0];
    return pos + t68[0].length;
  }
  let p = pos;
  for (;;) {
    const param = readParam(text, skip(text, p));
    if (!param) return p;
    setOwn(challenge.params, param.name.toLowerCase(), param.value);
    p = param.end;
  }
}

/**
 * Parses a `WWW-Authenticate` value into its challenges, in order.
 * @returns the challenges read before anything malformed (possibly none).
 */
export function parseChallenges(header: string | null | undefined): Challenge[] {
  if (!header) return [];
  const text = header.slice(0, MAX_HEADER);
  const out: Challenge[] = [];
  let pos = skip(text, 0);
  while (pos < text.length) {
    const scheme = at(TOKEN, text, pos);
    if (!scheme) break;
    const challenge: Challenge = { scheme: scheme[0].toLowerCase(), params: {} };
    pos += scheme[0].length;
    const next = text[pos];
    if (next !== undefined && next !== ' ' && next !== '\t' && next !== ',') break;
    if (next === ' ' || next === '\t') pos = readBody(text, skip(text, pos), challenge);
    out.push(challenge);
    pos = skip(text, pos);
  }
  return out;
}

/**
 * The Bearer or DPoP challenge of a response, read into what the client acts on.
 * Prefers a DPoP challenge that carries an error (nonce requests), then Bearer, then DPoP.
 */
export function authChallengeOf(headers: Headers): AuthChallenge | undefined {
  const all = parseChallenges(headers.get('www-authenticate'));
  const pick =
    all.find((c) => c.scheme === 'dpop' && c.params.error) ??
    all.find((c) => c.scheme === 'bearer') ??
    all.find((c) => c.scheme === 'dpop');
  if (!pick) return undefined;
  const out: AuthChallenge = { scheme: pick.scheme };
  const rm = pick.params.resource_metadata;
  if (rm && URL.canParse(rm)) out.resourceMetadata = new URL(rm);
  if (pick.params.scope !== undefined) out.scope = splitScope(pick.params.scope);
  if (pick.params.error) out.error = pick.params.error;
  return out;
}

/** Splits a space-separated scope string, dropping empties. */
export function splitScope(scope: string | undefined): string[] {
  return (scope ?? '').split(/\s+/).filter((s) => s.length > 0);
}
