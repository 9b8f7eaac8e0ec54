/**
 * The one rule for whether two spellings name the same resource URI, used for static
 * resources by the server's registry and by the host's (and so the gateway's) routing; the
 * template matcher (uri-template-match.ts) accepts the same two spellings. A URI may arrive
 * percent-encoded, as RFC 3986 requires (`notes://Z%C3%BCrich`, `with%20space.txt`), or raw,
 * as an IRI or a hand-written URI (`notes://Zürich`, `with space.txt`): both compare equal.
 *
 * The key is the URI form of the string: characters a URI cannot hold raw (non-ASCII,
 * space, controls, `"<>\^`{|}`) are percent-encoded as UTF-8 (RFC 3987 §3.1), the hex digits
 * of every triplet are uppercased and triplets of unreserved characters decoded (RFC 3986
 * §6.2.2.1, §6.2.2.2). Reserved characters keep their spelling: `a%2Fb` is not `a/b`. The
 * scheme and the host, which are case-insensitive, are lowercased (RFC 3986 §3.1, §3.2.2,
 * §6.2.2.1): `SECRET://Vault/key` is `secret://vault/key`. The path keeps its case, and
 * Unicode is compared as sent, not re-normalised (NFC and NFD spellings of `é` are two URIs).
 *
 * This key is also what the scope check resolves a URI with (catalogue/compiled.ts), so an
 * authorization decision is made on the resource that will be served, whatever the spelling.
 */
const TO_NORMALISE = /%[0-9A-Fa-f]{2}|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+/gu;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

function normalised(piece: string): string {
  if (piece.length === 3 && piece[0] === '%') {
    const char = String.fromCharCode(Number.parseInt(piece.slice(1), 16));
    return UNRESERVED.test(char) ? char : piece.toUpperCase();
  }
  try {
    return encodeURIComponent(piece);
  } catch {
    return piece; // a lone surrogate has no UTF-8 form: left as it is
  }
}

/** A scheme, and the host of an authority (after any userinfo), up to the path. */
const SCHEME_AND_HOST = /^([A-Za-z][A-Za-z0-9+.-]*:)(?:(\/\/(?:[^/?#@]*@)?)([^/?#:]*))?/;

function lowercased(_all: string, ...parts: (string | undefined)[]): string {
  const [scheme = '', slashes = '', host = ''] = parts;
  return `${scheme.toLowerCase()}${slashes}${host.toLowerCase()}`;
}

/** The comparison key of a resource URI: equal keys name the same resource (module comment). */
export function resourceUriKey(uri: string): string {
  return uri.replace(SCHEME_AND_HOST, lowercased).replace(TO_NORMALISE, normalised);
}

/**
 * The spelling among `subscribed` that names the same resource as `uri` (by
 * {@link resourceUriKey}), or undefined: how a `resources/updated` event finds its
 * subscribers whatever spelling each subscribed with, and the URI each is told (its own).
 * The same spelling costs one lookup; another costs one key per subscribed URI.
 */
export function subscribedSpelling(uri: string, subscribed: ReadonlySet<string>): string | undefined {
  if (subscribed.has(uri)) return uri;
  if (subscribed.size === 0) return undefined;
  const key = resourceUriKey(uri);
  for (const spelling of subscribed) if (resourceUriKey(spelling) === key) return spelling;
  return undefined;
}
