/**
 * CORS for the MCP endpoint, so a browser-based host on another origin can reach it.
 *
 * The preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered here, before
 * authentication and without reaching the server: 204 for an allowed origin, 403 for any
 * other. Every other response to an allowed origin carries `Access-Control-Allow-Origin`
 * and exposes the headers an MCP client reads (`Mcp-Session-Id`, `MCP-Protocol-Version`,
 * `WWW-Authenticate`). `Mcp-Param-*` is a prefix, which `Access-Control-Allow-Headers`
 * cannot express (its `*` also never covers `Authorization`): the preflight reflects the
 * requested headers when each is one an MCP client sends, and lists the fixed names otherwise.
 * Source: WHATWG Fetch §3.2 (CORS protocol); 2026-07-28 basic/transports/streamable-http
 * (request headers), basic/authorization (protected resource metadata discovery).
 */
import { LocalError } from '../../core/index.js';
import type { HeaderMap, HttpRequest, HttpResponse } from './exchange.js';
import { emptyResponse, rpcError } from './responses.js';

/** Options of the endpoint's `cors`: which origins may call it from a browser, and how. */
export interface CorsOptions {
  /**
   * The origins allowed (`https://app.example.com`, scheme, host and port as the browser
   * sends them), `['*']` for any origin, or a predicate called with the `Origin` header.
   */
  origins: readonly string[] | ((origin: string) => boolean);
  /**
   * Answer `Access-Control-Allow-Credentials: true`, so pages may send cookies (default
   * false; a bearer token in `Authorization` needs no credentials). Never with `'*'`.
   */
  credentials?: boolean;
  /** Request headers to allow beyond the MCP ones (names, any case). */
  allowHeaders?: readonly string[];
  /** Response headers to expose beyond the MCP ones. */
  exposeHeaders?: readonly string[];
  /** Seconds a browser may cache a preflight answer (default 600). */
  maxAgeS?: number;
}

/** The request headers an MCP client sends (lowercase); `mcp-param-*` is matched as a prefix. */
const MCP_REQUEST_HEADERS = [
  'accept',
  'authorization',
  'content-type',
  'last-event-id',
  'mcp-method',
  'mcp-name',
  'mcp-protocol-version',
  'mcp-session-id',
];
const PARAM_PREFIX = 'mcp-param-';
const EXPOSED = ['Mcp-Session-Id', 'MCP-Protocol-Version', 'WWW-Authenticate'];
const METHODS = 'GET, POST, DELETE';

/** The endpoint's CORS policy, built once from {@link CorsOptions}. */
export interface Cors {
  /** True when `origin` (an `Origin` header value) may call the endpoint. */
  allows(origin: string): boolean;
  /** The answer to a preflight request, or undefined when `request` is not one. */
  preflight(request: HttpRequest): HttpResponse | undefined;
  /** `response` with the CORS headers an allowed origin needs (the same object otherwise). */
  decorate(request: HttpRequest, response: HttpResponse): HttpResponse;
}

/**
 * Builds the CORS policy of `options`.
 * @throws LocalError `INVALID_ARGUMENT` for `credentials` with the `'*'` origin, or an
 *   origin that is not a URL origin (`https://host[:port]`).
 */
export function corsPolicy(options: CorsOptions): Cors {
  const list = typeof options.origins === 'function' ? undefined : checkedOrigins(options);
  const any = list?.has('*') === true;
  const allows =
    typeof options.origins === 'function'
      ? options.origins
      : (origin: string) => any || (list as Set<string>).has(origin.toLowerCase());
  const allowed = new Set([
    ...MCP_REQUEST_HEADERS,
    ...(options.allowHeaders ?? []).map((h) => h.toLowerCase()),
  ]);
  const fixed: HeaderMap = { vary: 'Origin' };
  if (options.credentials === true) fixed['access-control-allow-credentials'] = 'true';
  const expose = [...EXPOSED, ...(options.exposeHeaders ?? [])].join(', ');
  const maxAge = String(options.maxAgeS ?? 600);
  const allowOrigin = (origin: string): string => (any && options.credentials !== true ? '*' : origin);
  return {
    allows: (origin) => origin !== 'null' && allows(origin),
    preflight(request) {
      if (request.method !== 'OPTIONS') return undefined;
      const origin = request.headers.get('origin');
      const method = request.headers.get('access-control-request-method');
      if (origin === null || method === null) return undefined;
      if (origin === 'null' || !allows(origin))
        return rpcError('Forbidden', `Forbidden: CORS origin not allowed: ${origin}`, { headers: fixed });
      return emptyResponse(204, {
        ...fixed,
        'access-control-allow-origin': allowOrigin(origin),
        'access-control-allow-methods': METHODS,
        'access-control-allow-headers': allowedHeaders(request, allowed),
        'access-control-max-age': maxAge,
      });
    },
    decorate(request, response) {
      const origin = request.headers.get('origin');
      if (origin === null || origin === 'null' || !allows(origin)) return response;
      const headers = Object.assign({}, response.headers, fixed);
      headers['access-control-allow-origin'] = allowOrigin(origin);
      headers['access-control-expose-headers'] = expose;
      return { status: response.status, headers, body: response.body };
    },
  };
}

/**
 * What the preflight allows: the requested headers when each is allowed (so every
 * `Mcp-Param-*` a tool declares passes), else the fixed names, so the browser reports the one left out.
 */
function allowedHeaders(request: HttpRequest, allowed: ReadonlySet<string>): string {
  const requested = request.headers.get('access-control-request-headers');
  const names = (requested ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  const ok = (name: string): boolean =>
    allowed.has(name) || (name.startsWith(PARAM_PREFIX) && /^[a-z0-9-]+$/.test(name));
  return names.length > 0 && names.length <= 100 && names.every(ok)
    ? names.join(', ')
    : [...allowed].join(', ');
}

function checkedOrigins(options: CorsOptions): Set<string> {
  const origins = new Set<string>();
  for (const origin of options.origins as readonly string[]) {
    if (origin === '*') {
      if (options.credentials === true)
        throw new LocalError('INVALID_ARGUMENT', "cors: credentials cannot be allowed for the '*' origin");
    } else if (originOf(origin) !== origin.toLowerCase()) {
      throw new LocalError('INVALID_ARGUMENT', `cors: not an origin (scheme://host[:port]): ${origin}`);
    }
    origins.add(origin.toLowerCase());
  }
  return origins;
}

function originOf(text: string): string | undefined {
  try {
    return new URL(text).origin;
  } catch {
    return undefined;
  }
}
