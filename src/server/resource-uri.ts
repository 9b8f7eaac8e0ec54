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

/** The last URI keyed by {@link keyOf} and its key: one event meets every subscriber. */
let lastUri: string | undefined;
let lastKey = '';

/** {@link resourceUriKey}, remembered for the last URI (a `resources/updated` event's). */
function keyOf(uri: string): string {
  if (uri !== lastUri) {
    lastKey = resourceUriKey(uri);
    lastUri = uri;
  }
  return lastKey;
}

/**
 * The resource URIs one client subscribed to (a legacy session's `resources/subscribe`, a
 * modern listen's `resourceSubscriptions`), one per resource whatever spellings it used:
 * each is held under its {@link resourceUriKey}, computed when it is added, with the first
 * spelling it was subscribed with (what the client is told in `resources/updated`). Bounded
 * by whoever adds (`limits.maxResourceSubscriptions`).
 */
export class SubscribedUris {
  readonly #byKey = new Map<string, string>();

  /** Holds each of `uris` (spellings of one resource once: the first). */
  constructor(uris: Iterable<string> = []) {
    for (const uri of uris) this.add(uri);
  }

  /** How many resources are held. */
  get size(): number {
    return this.#byKey.size;
  }

  /** Holds `uri`'s resource with this spelling; false when it was held already (in any spelling). */
  add(uri: string): boolean {
    const key = resourceUriKey(uri);
    if (this.#byKey.has(key)) return false;
    this.#byKey.set(key, uri);
    return true;
  }

  /** The spelling held for `uri`'s resource, or undefined when it is not held. */
  spellingOf(uri: string): string | undefined {
    // An event naming the resource by its key (the usual case) costs one lookup.
    return this.#byKey.get(uri) ?? this.#byKey.get(keyOf(uri));
  }

  /** Stops holding `uri`'s resource; returns the spelling it was held with, if it was. */
  delete(uri: string): string | undefined {
    const key = resourceUriKey(uri);
    const held = this.#byKey.get(key);
    this.#byKey.delete(key);
    return held;
  }

  /** The held spellings, one per resource. */
  values(): IterableIterator<string> {
    return this.#byKey.values();
  }

  /** Stops holding every resource. */
  clear(): void {
    this.#byKey.clear();
  }
}
